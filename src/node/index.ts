// The `agui-rx/node` entry.
export {};
