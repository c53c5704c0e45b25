/**
 * The parts of the OpenTelemetry API 1.x (`@opentelemetry/api`) this library calls, written as
 * structural interfaces so that nothing here imports the package: it is an optional peer, and
 * `agui-rx/server` and `agui-rx/client` load and run without it (docs/observability.md#no-sdk).
 * The API's own `Tracer`, `Meter`, `Context`, `ContextManager` and `TextMapPropagator` are
 * assignable to these, so an application passes its own objects unchanged.
 */

/**
 * Attribute values as the API takes them (`AttributeValue`): primitives and homogeneous arrays of
 * them, written exactly as the API writes them (mutable arrays that may hold `null`), so that the
 * API's own `Tracer` and `Span` are assignable to the shapes here and back.
 */
export type OtelAttributeValue = string | number | boolean | (string | null | undefined)[] | (number | null | undefined)[] | (boolean | null | undefined)[];

/** A set of attributes. */
export type OtelAttributes = Readonly<Record<string, OtelAttributeValue | undefined>>;

/** An immutable context (`Context` of the API): values keyed by symbols. */
export interface OtelContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OtelContext;
  deleteValue(key: symbol): OtelContext;
}

/** What identifies a span across processes (`SpanContext`): the W3C trace context's fields. */
export interface OtelSpanContext {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly isRemote?: boolean | undefined;
  readonly traceState?: OtelTraceState | undefined;
}

/** Vendor trace state (`TraceState`), as the API shapes it. */
export interface OtelTraceState {
  set(key: string, value: string): OtelTraceState;
  unset(key: string): OtelTraceState;
  get(key: string): string | undefined;
  serialize(): string;
}

/** A link from one span to another (`Link`). */
export interface OtelLink {
  readonly context: OtelSpanContext;
  readonly attributes?: OtelAttributes | undefined;
}

/** A span's status (`SpanStatus`): 0 unset, 1 ok, 2 error. */
export interface OtelSpanStatus {
  readonly code: 0 | 1 | 2;
  readonly message?: string | undefined;
}

/** A span (`Span`), the calls this library makes on one. */
export interface OtelSpan {
  spanContext(): OtelSpanContext;
  setAttribute(key: string, value: OtelAttributeValue): unknown;
  setAttributes(attributes: OtelAttributes): unknown;
  addEvent(name: string, attributes?: OtelAttributes): unknown;
  addLink?(link: OtelLink): unknown;
  setStatus(status: OtelSpanStatus): unknown;
  updateName(name: string): unknown;
  recordException(exception: unknown, time?: number): void;
  end(endTime?: number): void;
  isRecording(): boolean;
}

/** How a span is started (`SpanOptions`). `kind`: 0 internal, 1 server, 2 client, 3 producer, 4 consumer. */
export interface OtelSpanOptions {
  readonly kind?: 0 | 1 | 2 | 3 | 4 | undefined;
  readonly attributes?: OtelAttributes | undefined;
  readonly links?: OtelLink[] | undefined;
  readonly startTime?: number | undefined;
  readonly root?: boolean | undefined;
}

/** A tracer (`Tracer`): starts spans, the parent taken from `context` (the active one when absent). */
export interface OtelTracer {
  startSpan(name: string, options?: OtelSpanOptions, context?: OtelContext): OtelSpan;
}

/** A tracer provider (`TracerProvider`). */
export interface OtelTracerProvider {
  getTracer(name: string, version?: string): OtelTracer;
}

/** A counter or up-down counter (`Counter`, `UpDownCounter`). */
export interface OtelCounter {
  add(value: number, attributes?: OtelAttributes): void;
}

/** A histogram (`Histogram`). */
export interface OtelHistogram {
  record(value: number, attributes?: OtelAttributes): void;
}

/** What an observable instrument's callback is handed (`ObservableResult`). */
export interface OtelObservableResult {
  observe(value: number, attributes?: OtelAttributes): void;
}

/** An observable instrument (`ObservableGauge`, `ObservableUpDownCounter`, …). */
export interface OtelObservable {
  addCallback(callback: (result: OtelObservableResult) => void): void;
  removeCallback(callback: (result: OtelObservableResult) => void): void;
}

/** How an instrument is described (`MetricOptions`). */
export interface OtelMetricOptions {
  readonly description?: string | undefined;
  readonly unit?: string | undefined;
}

/** A meter (`Meter`): the instruments this library makes. */
export interface OtelMeter {
  createCounter(name: string, options?: OtelMetricOptions): OtelCounter;
  createUpDownCounter(name: string, options?: OtelMetricOptions): OtelCounter;
  createHistogram(name: string, options?: OtelMetricOptions): OtelHistogram;
  createObservableGauge(name: string, options?: OtelMetricOptions): OtelObservable;
  createObservableCounter(name: string, options?: OtelMetricOptions): OtelObservable;
  createObservableUpDownCounter(name: string, options?: OtelMetricOptions): OtelObservable;
}

/** A meter provider (`MeterProvider`). */
export interface OtelMeterProvider {
  getMeter(name: string, version?: string): OtelMeter;
}

/** The registered context manager (`ContextManager`): the active context, and running code in one. */
export interface OtelContextManager {
  active(): OtelContext;
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: OtelContext, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F>;
}

/** How a propagator reads and writes a carrier (`TextMapGetter`/`TextMapSetter`). */
export interface OtelTextMapGetter<C> {
  keys(carrier: C): string[];
  get(carrier: C, key: string): undefined | string | string[];
}

/** How a propagator writes a carrier (`TextMapSetter`). */
export interface OtelTextMapSetter<C> {
  set(carrier: C, key: string, value: string): void;
}

/** The registered propagator (`TextMapPropagator`): W3C trace context by default in the SDKs. */
export interface OtelPropagator {
  inject<C>(context: OtelContext, carrier: C, setter: OtelTextMapSetter<C>): void;
  extract<C>(context: OtelContext, carrier: C, getter: OtelTextMapGetter<C>): OtelContext;
  fields(): string[];
}
