import { adminProcedure, authedProcedure, createTRPCRouter } from "../../trpc";
import { changePasswordHandler, createHandler, listHandler, meHandler, resetPasswordHandler, signOutEverywhereHandler, updateHandler } from "./user.handler";
import { ZChangePasswordInput, ZCreateUserInput, ZResetPasswordInput, ZSignOutEverywhereInput, ZUpdateUserInput } from "./user.schema";

export const userRouter = createTRPCRouter({
  me: authedProcedure.query(meHandler),
  list: adminProcedure.query(listHandler),
  create: adminProcedure.input(ZCreateUserInput).mutation(createHandler),
  update: adminProcedure.input(ZUpdateUserInput).mutation(updateHandler),
  signOutEverywhere: adminProcedure.input(ZSignOutEverywhereInput).mutation(signOutEverywhereHandler),
  changePassword: authedProcedure.input(ZChangePasswordInput).mutation(changePasswordHandler),
  resetPassword: adminProcedure.input(ZResetPasswordInput).mutation(resetPasswordHandler),
});
