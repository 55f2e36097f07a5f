import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../paths";

/** A file of this checkout; bundled route code finds the checkout from the working directory instead. */
export function checkoutFile(...parts: string[]): string {
  const inCheckout = path.join(projectRoot, ...parts);
  if (fs.existsSync(inCheckout)) return inCheckout;
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), ...parts);
}
