import { z } from "zod";
import { DOCTOR_SEVERITIES } from "../../../runtime/doctor/types";
import { authedProcedure, createTRPCRouter, globalAdminProcedure } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import * as h from "./doctor.handler";
import { ZRefInput } from "../evals/evals.schema";

// The skill doctor (issue 18): a skill's findings for the editor, the catalog report for /doctor. Reading needs a
// session and the right to read the skill; the services decide. Setting the gate, console-wide, is the global admin's.
export const doctorRouter = createTRPCRouter({
  ...procedures(authedProcedure, h, {
    query: { skill: ZRefInput, report: noInput, policy: noInput, problems: noInput },
  }),
  ...procedures(globalAdminProcedure, h, {
    mutation: { setPolicy: z.object({ gate: z.enum(DOCTOR_SEVERITIES).nullable(), ignore: z.array(z.string().max(64)).max(100) }) },
  }),
});
