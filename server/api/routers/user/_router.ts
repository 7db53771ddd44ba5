import { adminProcedure, authedProcedure, createTRPCRouter } from "../../trpc";
import { changePasswordHandler, createHandler, listHandler, meHandler, resetPasswordHandler, signOutEverywhereHandler, updateHandler } from "./user.handler";
import { ZChangePasswordInput, ZCreateUserInput, ZUserIdInput, ZUpdateUserInput } from "./user.schema";

export const userRouter = createTRPCRouter({
  me: authedProcedure.query(meHandler),
  list: adminProcedure.query(listHandler),
  create: adminProcedure.input(ZCreateUserInput).mutation(createHandler),
  update: adminProcedure.input(ZUpdateUserInput).mutation(updateHandler),
  signOutEverywhere: adminProcedure.input(ZUserIdInput).mutation(signOutEverywhereHandler),
  changePassword: authedProcedure.input(ZChangePasswordInput).mutation(changePasswordHandler),
  resetPassword: adminProcedure.input(ZUserIdInput).mutation(resetPasswordHandler),
});
