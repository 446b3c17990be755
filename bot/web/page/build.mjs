// Bundles src/ into ../static/ (app.js, app.css, index.html): one script and one stylesheet, served from the
// page's own origin, so Discord's Activity proxy and the Content-Security-Policy ('self' only) both hold.
import { build } from "esbuild";
import { copyFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "static");
await mkdir(out, { recursive: true });
await build({
  entryPoints: { app: join(here, "src", "main.js") },
  bundle: true,
  format: "esm",
  target: ["es2020"],
  minify: true,
  sourcemap: false,
  legalComments: "none",
  outdir: out,
  logLevel: "warning",
});
await build({
  entryPoints: { app: join(here, "src", "app.css") },
  bundle: true,
  minify: true,
  outdir: out,
  logLevel: "warning",
});
await copyFile(join(here, "src", "index.html"), join(out, "index.html"));
