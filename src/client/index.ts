// The `agui-rx/client` entry.
export {};
