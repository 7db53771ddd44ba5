import { z } from "zod";
import { DOCTOR_SEVERITIES } from "../../../runtime/doctor/types";
import { adminProcedure, authedProcedure, createTRPCRouter } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import * as h from "./doctor.handler";
import { ZRefInput } from "../evals/evals.schema";

// The skill doctor (issue 18): a skill's findings for the editor, the catalog report for /doctor. Reading needs a
// session and the right to read the skill; the services decide. Setting the gate is for administrators.
export const doctorRouter = createTRPCRouter({
  ...procedures(authedProcedure, h, {
    query: { skill: ZRefInput, report: noInput, policy: noInput, problems: noInput },
  }),
  ...procedures(adminProcedure, h, {
    mutation: { setPolicy: z.object({ gate: z.enum(DOCTOR_SEVERITIES).nullable(), ignore: z.array(z.string().max(64)).max(100) }) },
  }),
});
