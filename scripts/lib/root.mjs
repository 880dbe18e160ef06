// The repository's root directory, for scripts that locate its files (a module of its own, so that
// scripts/lib modules importing each other never need it from one another).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
