// A past revision's files, for benchmarks that compare it with the working tree.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { root } from "./root.mjs";

/** Extracts `paths` of revision `ref` (git archive) into `dir`/tree and returns that folder. */
export function treeAt(ref, dir, paths) {
  const base = join(dir, "tree");
  mkdirSync(base);
  const tar = join(dir, "tree.tar");
  execFileSync("git", ["-C", root, "archive", "--format=tar", "-o", tar, ref, ...paths]);
  execFileSync("tar", ["-xf", tar, "-C", base]);
  return base;
}
