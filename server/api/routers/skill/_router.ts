import { authedProcedure, createTRPCRouter } from "../../trpc";
import * as h from "./skill.handler";
import * as S from "./skill.schema";

// Every procedure needs a session; what each role may change is decided by the skills service.
export const skillRouter = createTRPCRouter({
  list: authedProcedure.input(S.ZListInput).query(h.list),
  search: authedProcedure.input(S.ZSearchInput).query(h.search),
  info: authedProcedure.input(S.ZRefInput).query(h.info),
  readFile: authedProcedure.input(S.ZFileInput).query(h.readFile),
  check: authedProcedure.input(S.ZCheckInput).mutation(h.check),
  disclosure: authedProcedure.input(S.ZRefInput).query(h.disclosure),
  save: authedProcedure.input(S.ZSaveInput).mutation(h.save),
  createFile: authedProcedure.input(S.ZCreateFileInput).mutation(h.createFile),
  rename: authedProcedure.input(S.ZRenameInput).mutation(h.rename),
  deletePath: authedProcedure.input(S.ZFileInput).mutation(h.deletePath),
  versions: authedProcedure.input(S.ZRefInput).query(h.versions),
  version: authedProcedure.input(S.ZVersionInput).query(h.version),
  restore: authedProcedure.input(S.ZRestoreInput).mutation(h.restore),
  targets: authedProcedure.query(h.targets),
  nameCheck: authedProcedure.input(S.ZNameCheckInput).query(h.nameCheck),
  create: authedProcedure.input(S.ZCreateSkillInput).mutation(h.create),
  delete: authedProcedure.input(S.ZDeleteSkillInput).mutation(h.remove),
  deleted: authedProcedure.query(h.deleted),
  restoreDeleted: authedProcedure.input(S.ZVersionInput).mutation(h.restoreDeleted),
  import: authedProcedure.input(S.ZImportInput).mutation(h.importZip),
  export: authedProcedure.input(S.ZRefInput).mutation(h.exportZip),
  vocabulary: authedProcedure.query(h.fieldDocs),
});
