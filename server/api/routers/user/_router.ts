import { adminProcedure, authedProcedure, createTRPCRouter } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import * as h from "./user.handler";
import * as S from "./user.schema";

export const userRouter = createTRPCRouter({
  // Everyone: who they are, and their own password.
  ...procedures(authedProcedure, h, {
    query: { me: noInput },
    mutation: { changePassword: S.ZChangePasswordInput },
  }),
  // Administrators: the other users.
  ...procedures(adminProcedure, h, {
    query: { list: noInput },
    mutation: {
      create: S.ZCreateUserInput,
      update: S.ZUpdateUserInput,
      signOutEverywhere: S.ZUserIdInput,
      resetPassword: S.ZUserIdInput,
      setTenants: S.ZSetTenantsInput,
    },
  }),
});
