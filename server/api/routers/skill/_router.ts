import { createTRPCRouter, authedProcedure } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import * as h from "./skill.handler";
import * as S from "./skill.schema";

// Every procedure needs a session; what each role may change is decided by the skills service.
export const skillRouter = createTRPCRouter(
  procedures(authedProcedure, h, {
    query: {
      list: S.ZListInput,
      search: S.ZSearchInput,
      info: S.ZRefInput,
      readFile: S.ZFileInput,
      disclosure: S.ZRefInput,
      versions: S.ZRefInput,
      version: S.ZVersionInput,
      targets: noInput,
      nameCheck: S.ZNameCheckInput,
      deleted: noInput,
      vocabulary: noInput,
    },
    mutation: {
      check: S.ZCheckInput,
      save: S.ZSaveInput,
      createFile: S.ZCreateFileInput,
      rename: S.ZRenameInput,
      deletePath: S.ZFileInput,
      restore: S.ZRestoreInput,
      create: S.ZCreateSkillInput,
      delete: S.ZDeleteSkillInput,
      restoreDeleted: S.ZVersionInput,
      import: S.ZImportInput,
      export: S.ZRefInput,
    },
  }),
);
