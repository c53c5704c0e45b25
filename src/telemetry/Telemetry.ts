/**
 * `TelemetryOptions` resolved: the tracer, the meter and the context plumbing every instrumented
 * part of the library goes through, reading the global registry lazily (docs/observability.md#setup).
 */
import { globalOtel } from "./globalOtel";
import { nonRecordingSpan } from "./nonRecordingSpan";
import type { OtelContext, OtelMeter, OtelMeterProvider, OtelPropagator, OtelSpan, OtelTracer, OtelTracerProvider } from "./OtelApi";
import type { TelemetryOptions } from "./TelemetryOptions";
import { formatTraceparent, parseTraceparent, TRACEPARENT_HEADER } from "./traceparent";

/** The instrumentation scope's name: the tracer's and the meter's. */
export const INSTRUMENTATION_NAME = "agui-rx";

/** The key under which the API keeps the active span in a context (`trace.setSpan`): `createContextKey` is `Symbol.for`. */
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");

/** A context of its own for when no context manager is registered: the API's `ROOT_CONTEXT`, rebuilt. */
class PlainContext implements OtelContext {
  constructor(private readonly values: ReadonlyMap<symbol, unknown> = new Map()) {}
  getValue(key: symbol): unknown {
    return this.values.get(key);
  }
  setValue(key: symbol, value: unknown): OtelContext {
    return new PlainContext(new Map(this.values).set(key, value));
  }
  deleteValue(key: symbol): OtelContext {
    const values = new Map(this.values);
    values.delete(key);
    return new PlainContext(values);
  }
}

/** What a provider gave when it was last asked: a registration is asked once, and asked again only once another replaced it. */
class AskedOnce<P extends object, R> {
  private last: { readonly provider: P; readonly made: R } | undefined;
  constructor(private readonly ask: (provider: P) => R) {}
  of(provider: P | undefined): R | undefined {
    if (provider === undefined) return undefined;
    if (this.last?.provider !== provider) this.last = { provider, made: this.ask(provider) };
    return this.last.made;
  }
}

/** The empty context. */
export const ROOT_CONTEXT: OtelContext = new PlainContext();

/** Reads a `Headers` for a propagator. */
const headersGetter = {
  keys: (carrier: Headers): string[] => [...carrier.keys()],
  get: (carrier: Headers, key: string): string | undefined => carrier.get(key) ?? undefined,
};

/** Writes a plain header record for a propagator. */
const recordSetter = {
  set: (carrier: Record<string, string>, key: string, value: string): void => {
    carrier[key] = value;
  },
};

/**
 * The resolved telemetry of a handler, a Session or an agent. Each getter reads the global
 * registry when called (unless the option named an object), so one made before the SDK registered
 * still finds it.
 *
 * @example
 * const telemetry = new Telemetry(options.telemetry);
 * const span = telemetry.tracer()?.startSpan("invoke_agent", { kind: 1 }, telemetry.extract(request.headers));
 */
export class Telemetry {
  /** Content (message text, tool arguments, state) may go on spans. */
  readonly recordContent: boolean;

  constructor(private readonly options: TelemetryOptions = {}) {
    this.recordContent = options.recordContent === true;
  }

  /** The tracer the global provider gave, asked once per registration (not per call). */
  private readonly tracers = new AskedOnce((provider: OtelTracerProvider) => provider.getTracer(INSTRUMENTATION_NAME));
  /** The same for the meter: it is asked for at write-batch granularity, and `getMeter` builds a lookup key each time. */
  private readonly meters = new AskedOnce((provider: OtelMeterProvider) => provider.getMeter(INSTRUMENTATION_NAME));

  /** The tracer, or `undefined` when tracing is off or no SDK registered one. */
  tracer(): OtelTracer | undefined {
    const given = this.options.tracer;
    if (given === false) return undefined;
    return given ?? this.tracers.of(globalOtel()?.trace);
  }

  /** The meter, or `undefined` when metrics are off or no SDK registered one. */
  meter(): OtelMeter | undefined {
    const given = this.options.meter;
    if (given === false) return undefined;
    return given ?? this.meters.of(globalOtel()?.metrics);
  }

  /** The active context (the registered context manager's, e.g. Node's async context), or the empty one. */
  active(): OtelContext {
    return globalOtel()?.context?.active() ?? ROOT_CONTEXT;
  }

  /**
   * Runs `fn` with `context` active, so that spans started inside it (the AI SDK's, an
   * application's) become its children; without a context manager `fn` just runs.
   */
  with<R>(context: OtelContext, fn: () => R): R {
    const manager = globalOtel()?.context;
    return manager === undefined ? fn() : manager.with(context, fn);
  }

  /** `context` with `span` as its active span (`trace.setSpan`). */
  withSpan(context: OtelContext, span: OtelSpan): OtelContext {
    return context.setValue(SPAN_KEY, span);
  }

  /** The active span of `context` (`trace.getSpan`), if any. */
  spanOf(context: OtelContext): OtelSpan | undefined {
    return context.getValue(SPAN_KEY) as OtelSpan | undefined;
  }

  /**
   * The context a request's headers carry (a W3C `traceparent` by default): the registered
   * propagator's reading, or, with none registered, `traceparent` read here. A request without one
   * gives `base` (default: the active context) unchanged.
   */
  extract(headers: Headers, base: OtelContext = this.active()): OtelContext {
    const propagator: OtelPropagator | undefined = globalOtel()?.propagation;
    if (propagator !== undefined) return propagator.extract(base, headers, headersGetter);
    const parent = parseTraceparent(headers.get(TRACEPARENT_HEADER));
    return parent === undefined ? base : this.withSpan(base, nonRecordingSpan(parent));
  }

  /** Writes `context`'s span into `headers` (the registered propagator's fields, or `traceparent`); nothing without a span. */
  inject(context: OtelContext, headers: Record<string, string>): void {
    const propagator: OtelPropagator | undefined = globalOtel()?.propagation;
    if (propagator !== undefined) {
      propagator.inject(context, headers, recordSetter);
      return;
    }
    const span = this.spanOf(context);
    if (span !== undefined) headers[TRACEPARENT_HEADER] = formatTraceparent(span.spanContext());
  }
}
