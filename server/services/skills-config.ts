// config.yaml for the console: the same reading as the CLI's; a wrong file is a clear ServiceError naming the key
// (shown on the page), never a crash.
import { ServiceError } from "../domain/errors";
import { ConfigFileError, configContext, readSkillsConfig } from "../runtime/registry/config-file";

export function configContextFor(home: string, projectRoot: string): ReturnType<typeof configContext> {
  try {
    return configContext(readSkillsConfig(home, projectRoot));
  } catch (e) {
    if (e instanceof ConfigFileError) throw new ServiceError("PRECONDITION_FAILED", `The skills configuration is wrong, fix it first: ${e.message}`);
    throw e;
  }
}
