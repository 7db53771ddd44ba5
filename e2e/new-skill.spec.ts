// Naming a new skill and importing one, as an admin types and clicks: the name check agrees with policy and with
// the console's own folder rule, the policies form says which field it refuses, and an archive that cannot load
// says so on its button too. The blocked name is this run's own and is unblocked at the end.
import { expect, test } from "./page-errors";
import { zipSync } from "fflate";
import { applyPolicyChange, signInAsAdmin } from "./helpers";

test("the name check warns of a name policy blocks and suggests names the console accepts", async ({ page }) => {
  const stamp = Date.now().toString(36);
  const blocked = `blocked-${stamp}`;
  await signInAsAdmin(page);
  await page.goto("/policies");
  const names = page.getByRole("region", { name: "Blocked names" });
  const field = names.getByLabel("Skill name to block");
  // Refusals name the field in plain words.
  await field.pressSequentially("  ");
  // The preview of the change already refuses it, and Apply stays off.
  const box = page.getByRole("dialog", { name: "What this policy change does" });
  await names.getByRole("button", { name: "Block", exact: true }).click();
  await expect(box.getByTestId("policy-preview")).toHaveText("Name: cannot be empty.");
  await expect(box.getByRole("button", { name: "Apply" })).toBeDisabled();
  await box.getByRole("button", { name: "Cancel" }).click();
  await field.fill("b".repeat(1025));
  await names.getByRole("button", { name: "Block", exact: true }).click();
  await expect(box.getByTestId("policy-preview")).toHaveText("Name: at most 1024 characters.");
  await box.getByRole("button", { name: "Cancel" }).click();
  await field.fill(blocked);
  await names.getByRole("button", { name: "Block", exact: true }).click();
  await applyPolicyChange(page);
  await expect(page.getByTestId("blocked-names")).toContainText(blocked);
  await expect(page.getByTestId("policy-error")).toHaveCount(0);

  await page.goto("/skills");
  await page.getByRole("button", { name: "New skill" }).click();
  const form = page.getByRole("form", { name: "New skill" });
  await form.getByLabel("Target layer").selectOption("personal");
  const name = form.getByLabel("Skill name");
  await name.pressSequentially(blocked);
  await expect(page.getByTestId("name-check")).toContainText(`blocked by policy: the name "${blocked}" is on the block list`);
  await expect(page.getByTestId("name-check")).not.toContainText("is available");

  // A name with an accent and an emoji: the hint is an ASCII name, and that name is then accepted.
  await name.fill("");
  await name.pressSequentially(`Émoji${stamp}🚀`);
  await expect(page.getByTestId("name-check")).toContainText(`use "emoji${stamp}"`);
  await name.fill("");
  await name.pressSequentially(`emoji${stamp}`);
  await expect(page.getByTestId("name-check")).toHaveText(`✓ emoji${stamp} is available in the personal layer.`);

  await page.goto("/policies");
  await page.getByRole("button", { name: `Unblock ${blocked}` }).click();
  await applyPolicyChange(page);
  await expect(page.getByTestId("blocked-names")).not.toContainText(blocked);
});

test("an archive whose SKILL.md does not load offers 'Cannot import', as the report above it says", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/skills");
  await page.getByRole("button", { name: "Import .zip" }).click();
  const region = page.getByRole("region", { name: "Import skill" });
  const broken = Buffer.from(zipSync({ "broken-yaml/SKILL.md": new TextEncoder().encode("---\nname: broken-yaml\ndescription: [never closed\n---\nBody\n") }));
  await region.getByLabel("Skill archive").setInputFiles({ name: "broken-yaml.zip", mimeType: "application/zip", buffer: broken });
  await expect(page.getByTestId("import-report")).toContainText("It cannot be loaded: fix the errors before importing.");
  await expect(region.getByRole("button", { name: "Cannot import" })).toBeDisabled();
  await expect(region.getByRole("button", { name: /with warnings/ })).toHaveCount(0);
});
