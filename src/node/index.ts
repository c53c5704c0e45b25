// The `agui-rx/node` entry: node:http adapters for fetch-style handlers.
export { toNodeHandler, type NodeHandler, type FetchHandler } from "./toNodeHandler";
export { serve, type ServeOptions, type Served } from "./serve";
