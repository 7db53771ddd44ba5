import { adminProcedure, authedProcedure, createTRPCRouter } from "../../trpc";
import { createHandler, listHandler, meHandler, signOutEverywhereHandler, updateHandler } from "./user.handler";
import { ZCreateUserInput, ZSignOutEverywhereInput, ZUpdateUserInput } from "./user.schema";

export const userRouter = createTRPCRouter({
  me: authedProcedure.query(meHandler),
  list: adminProcedure.query(listHandler),
  create: adminProcedure.input(ZCreateUserInput).mutation(createHandler),
  update: adminProcedure.input(ZUpdateUserInput).mutation(updateHandler),
  signOutEverywhere: adminProcedure.input(ZSignOutEverywhereInput).mutation(signOutEverywhereHandler),
});
