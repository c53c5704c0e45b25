// Makes the `ai` package unresolvable for import() in this process (a `node --import` preload),
// as hideAi.cjs does for require(): a resolve hook that refuses `ai` and `ai/*`.
import { register } from "node:module";

const hook = `export async function resolve(specifier, context, next) {
  if (specifier === "ai" || specifier.startsWith("ai/")) {
    throw Object.assign(new Error("Cannot find package '" + specifier + "' (hidden: this process runs as if ai were not installed)"), { code: "ERR_MODULE_NOT_FOUND" });
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
