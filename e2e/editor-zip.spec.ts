// A real skill folder imported as a .zip, exported and re-imported unchanged; a zip-slip archive refused.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./page-errors";
import { unzipSync, zipSync, type Zippable } from "fflate";
import { monaco, newUser, stamp } from "./editor-helpers";

const SHARED = process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(import.meta.dirname, "..", "..", "shared");
const REAL_SKILL = path.join(SHARED, "fixtures", "real-skills", "anthropics__skills", "skill-creator");

function zipOfFolder(dir: string, top: string): Buffer {
  const tree: Zippable = {};
  const walk = (abs: string, rel: string) => {
    for (const d of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(path.join(abs, d.name), r);
      else if (d.isFile()) tree[`${top}/${r}`] = new Uint8Array(fs.readFileSync(path.join(abs, d.name)));
    }
  };
  walk(dir, "");
  return Buffer.from(zipSync(tree));
}

function filesOfZip(zip: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(unzipSync(new Uint8Array(zip)))) if (!k.endsWith("/")) out[k] = Buffer.from(v).toString("base64");
  return out;
}

test("import a real skill folder as a .zip, see it listed, export it and re-import it unchanged", async ({ browser }) => {
  let source = REAL_SKILL;
  let folder = "skill-creator";
  if (!fs.existsSync(path.join(REAL_SKILL, "SKILL.md"))) {
    console.warn(`[editor-zip.spec] ${REAL_SKILL} is absent: importing a skill folder written by the test instead`);
    folder = `written-${stamp}`;
    source = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-e2e-skill-"));
    fs.mkdirSync(path.join(source, "references"));
    fs.writeFileSync(path.join(source, "SKILL.md"), `---\nname: ${folder}\ndescription: Written by the e2e test. Use it to test import.\n---\n\nSee [ref](references/ref.md).\n`);
    fs.writeFileSync(path.join(source, "references", "ref.md"), "# Ref\n");
  }
  const zip = zipOfFolder(source, folder);
  const { ctx, page, external } = await newUser(browser, "author");
  // First import into this new author's personal layer (fresh on every run, so reruns never collide).
  await page.goto("/skills");
  await page.getByRole("button", { name: "Import .zip" }).click();
  const region = page.getByRole("region", { name: "Import skill" });
  await region.getByLabel("Import layer").selectOption("personal");
  await region.getByLabel("Skill archive").setInputFiles({ name: `${folder}.zip`, mimeType: "application/zip", buffer: zip });
  await expect(page.getByTestId("import-report")).toContainText(folder);
  await region.getByRole("button", { name: /^Import/ }).click();
  await expect(page.getByTestId("import-done")).toBeVisible();
  await page.getByLabel("Search skills").fill(folder);
  await expect(page.getByTestId(`skill-row-personal-${folder}`)).toContainText("active");

  // Export: a zip with one top folder named like the skill and the same files.
  await page.getByTestId(`skill-row-personal-${folder}`).getByRole("link").first().click();
  await expect(monaco(page)).toContainText(`name: ${folder}`, { timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export .zip" }).click()]);
  expect(download.suggestedFilename()).toBe(`${folder}.zip`);
  const exported = fs.readFileSync(await download.path());
  expect(filesOfZip(exported)).toEqual(filesOfZip(zip));

  // Re-import the export into the project layer (under a folder name of this run): same files again.
  const copy = `${folder}-${stamp}`;
  await page.goto("/skills");
  await page.getByRole("button", { name: "Import .zip" }).click();
  await region.getByLabel("Import layer").selectOption("project");
  await region.getByLabel("Import folder name").fill(copy);
  await region.getByLabel("Skill archive").setInputFiles({ name: `${folder}.zip`, mimeType: "application/zip", buffer: exported });
  await expect(page.getByTestId("import-report")).toContainText(copy);
  await region.getByRole("button", { name: /^Import/ }).click();
  await expect(page.getByTestId("import-done")).toBeVisible();
  await page.goto(`/skills/project/${copy}`);
  await expect(monaco(page)).toContainText(`name: ${folder}`, { timeout: 30_000 });
  const [again] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export .zip" }).click()]);
  const strip = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([k, v]) => [k.slice(k.indexOf("/") + 1), v]));
  expect(strip(filesOfZip(fs.readFileSync(await again.path())))).toEqual(strip(filesOfZip(zip)));

  // A zip-slip archive is refused and nothing is written.
  await page.goto("/skills");
  await page.getByRole("button", { name: "Import .zip" }).click();
  const evil = Buffer.from(zipSync({ "evil/SKILL.md": new TextEncoder().encode("---\nname: evil\ndescription: x\n---\n"), "evil/../../pwned.txt": new Uint8Array([1]) }));
  await region.getByLabel("Skill archive").setInputFiles({ name: "evil.zip", mimeType: "application/zip", buffer: evil });
  await expect(page.getByTestId("import-error")).toContainText("zip-slip");
  expect(external).toEqual([]);
  await ctx.close();
});
