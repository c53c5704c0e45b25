// The `agui-rx/react` entry.
export {};
