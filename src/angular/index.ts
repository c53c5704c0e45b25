// The `agui-rx/angular` entry (Angular >= 17, an optional peer): a Session provided through an
// InjectionToken and read as signals. Plain functions over inject(), signal() and DestroyRef: no
// decorators, so the built files need no Angular compiler (docs/angular.md).
export { AGENT_SESSION, provideAgent, injectSession, type ProvideAgentOptions } from "./provideAgent";
export { injectAgent, type AgentView } from "./injectAgent";
export { injectThreads, type Threads } from "./injectThreads";
