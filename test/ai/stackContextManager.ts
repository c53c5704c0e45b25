/**
 * A context manager whose context does not follow promises: `with` makes a context active for the
 * synchronous call only, as the web SDK's `StackContextManager` (`@opentelemetry/sdk-trace-web`,
 * not installed here) and any runtime without an async context do. What runs after an `await`
 * sees the root context again.
 */
import { ROOT_CONTEXT, type Context, type ContextManager } from "@opentelemetry/api";

/** The synchronous stack context manager (see the file's comment). */
export class StackContextManager implements ContextManager {
  private current: Context = ROOT_CONTEXT;

  active(): Context {
    return this.current;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const before = this.current;
    this.current = context;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = before;
    }
  }

  bind<T>(_context: Context, target: T): T {
    return target;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.current = ROOT_CONTEXT;
    return this;
  }
}
