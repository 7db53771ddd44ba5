import { authedProcedure, authorProcedure, createTRPCRouter } from "../../trpc";
import { definitionHandler, deployHandler, deployPreviewHandler, effectiveHandler, explainHandler, matrixHandler, optionsHandler } from "./layers.handler";
import { ZDefinitionInput, ZDeployInput, ZDeployPreviewInput, ZExplainInput, ZWhatIf } from "./layers.schema";

export const layersRouter = createTRPCRouter({
  options: authedProcedure.query(optionsHandler),
  matrix: authedProcedure.input(ZWhatIf).query(matrixHandler),
  effective: authedProcedure.input(ZWhatIf).query(effectiveHandler),
  explain: authedProcedure.input(ZExplainInput).query(explainHandler),
  definition: authedProcedure.input(ZDefinitionInput).query(definitionHandler),
  deployPreview: authorProcedure.input(ZDeployPreviewInput).query(deployPreviewHandler),
  deploy: authorProcedure.input(ZDeployInput).mutation(deployHandler),
});
