/** The Session as an Angular dependency: an InjectionToken, the provider that makes it, and its cleanup through DestroyRef. */
import { DestroyRef, inject, InjectionToken, type Provider } from "@angular/core";
import { RunController, sessionTicks, type RenderFrame, type Session } from "../client";

/**
 * The default token `provideAgent` provides and `injectAgent()`/`injectSession()` read: a
 * Session of untyped state. For typed state, make a token of your own
 * (`new InjectionToken<Session<Board>>("board")`) and pass it to all three.
 *
 * @example
 * const session = inject(AGENT_SESSION);
 */
export const AGENT_SESSION = new InjectionToken<Session>("agui-rx AGENT_SESSION (provide it with provideAgent(...))");

/**
 * `provideAgent`'s options: the token to provide (default {@link AGENT_SESSION}) and when the
 * signals of `injectAgent` refresh after changes.
 *
 * @example
 * const options: ProvideAgentOptions<Board> = { token: BOARD, frame: null };
 */
export interface ProvideAgentOptions<S> {
  readonly token?: InjectionToken<Session<S>> | undefined;
  /**
   * When `injectAgent`'s signals refresh: once per animation frame by default in a browser
   * (`animationFrameScheduler`), at once (`null`) where there is no `requestAnimationFrame`, or
   * any scheduler (a `TestScheduler`).
   */
  readonly frame?: RenderFrame | undefined;
}

/**
 * A provider of one Session, made by `create` in an injection context the first time something
 * injects it (so `create` may call `inject()` for a URL or a token). Put it in
 * `bootstrapApplication`'s providers for one session per app, or in a component's `providers` for
 * one per component instance. When that injector is destroyed (the app, or the component), its
 * `DestroyRef` detaches from the run the session's views started: the request is aborted, and a
 * server that keeps threads goes on with the run (a later `connect()` joins it again).
 *
 * No decorators and no compiled Angular metadata: an `InjectionToken` with a factory provider is
 * plain JavaScript, so this works in a production (AOT) build without Angular's compiler ever
 * seeing the library.
 *
 * @example
 * bootstrapApplication(AppComponent, {
 *   providers: [provideAgent(() => new Session(new HttpTransport("/agent"), { threadId: "board" }))],
 * });
 */
export function provideAgent<S>(create: () => Session<S>, options: ProvideAgentOptions<S> = {}): Provider {
  return {
    provide: options.token ?? AGENT_SESSION,
    useFactory: (): Session<S> => {
      const session = create();
      sessionTicks(session, options.frame); // fixes this session's frame before any view asks
      inject(DestroyRef).onDestroy(() => {
        RunController.of(session).detach();
        session.close(); // stops following the thread's switches (docs/client.md#branches)
      });
      return session;
    },
  };
}

/**
 * The Session `provideAgent` provided, from an injection context (a constructor, a field
 * initializer, a provider's factory). Without a token it reads {@link AGENT_SESSION}.
 *
 * @example
 * readonly session = injectSession(BOARD); // Session<Board>
 */
export function injectSession(): Session;
export function injectSession<S>(token: InjectionToken<Session<S>>): Session<S>;
export function injectSession<S>(token?: InjectionToken<Session<S>>): Session<S> | Session {
  return token === undefined ? inject(AGENT_SESSION) : inject(token);
}
