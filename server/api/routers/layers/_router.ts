import { authedProcedure, authorProcedure, createTRPCRouter } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import * as h from "./layers.handler";
import * as S from "./layers.schema";

export const layersRouter = createTRPCRouter({
  // Reading the resolution: any signed-in user (the services narrow what-ifs about others to admins).
  ...procedures(authedProcedure, h, {
    query: {
      options: noInput,
      matrix: S.ZWhatIf,
      effective: S.ZWhatIf,
      explain: S.ZExplainInput,
      served: S.ZServedInput,
      definition: S.ZDefinitionInput,
    },
  }),
  // Deploying: authors and admins.
  ...procedures(authorProcedure, h, {
    query: { deployPreview: S.ZDeployPreviewInput },
    mutation: { deploy: S.ZDeployInput },
  }),
});
