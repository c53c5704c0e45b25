// Makes the `ai` package unresolvable for require() in this process (a `node -r` preload): what a
// project without the optional peer sees. test/testing/packaging.test.ts loads the built kit under it.
const Module = require("node:module");

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "ai" || request.startsWith("ai/")) {
    const error = new Error(`Cannot find module '${request}' (hidden: this process runs as if ai were not installed)`);
    error.code = "MODULE_NOT_FOUND";
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
