// The `agui-rx/server` entry.
export {};
