/** Helpers for the server metrics tests: the real SDK's MeterProvider read on demand, and its data points by instrument. */
import { MeterProvider, MetricReader, DataPointType } from "@opentelemetry/sdk-metrics";
import type { OtelMeter } from "../../../src/telemetry/OtelApi";

/** A reader that exports nothing by itself: the test collects when it wants to look. */
class OnDemandReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

/** One data point as collected: its instrument, kind, unit, attributes and value (a number, or a histogram's count and sum). */
export interface Point {
  readonly name: string;
  readonly unit: string;
  readonly kind: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly value: number;
  readonly count?: number;
  readonly sum?: number;
}

/** A MeterProvider with a reader collected on demand. */
export interface MetricsProbe {
  readonly provider: MeterProvider;
  readonly meter: OtelMeter;
  /** Every point collected now (cumulative), across instruments. */
  collect(): Promise<Point[]>;
  /** Collects after each turn of the event loop until `done` holds for what was collected (bounded: a guard against a hang). */
  collectUntil(done: (points: readonly Point[]) => boolean, what: string): Promise<Point[]>;
  /** The points of one instrument now. */
  points(name: string): Promise<Point[]>;
  /** Every point collected by this probe so far (for the cardinality check). */
  readonly seen: Point[];
}

/** A fresh provider and reader; `meter` is the provider's `agui-rx` meter (what the handler is given). */
export function metricsProbe(): MetricsProbe {
  const reader = new OnDemandReader();
  const provider = new MeterProvider({ readers: [reader] });
  const seen: Point[] = [];
  const collect = async (): Promise<Point[]> => {
    const { resourceMetrics, errors } = await reader.collect();
    if (errors.length > 0) throw new Error(`the reader failed: ${errors.map(String).join("; ")}`);
    const points: Point[] = [];
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        const { name, unit } = metric.descriptor;
        for (const point of metric.dataPoints) {
          const base = { name, unit, kind: DataPointType[metric.dataPointType], attributes: point.attributes };
          if (metric.dataPointType === DataPointType.HISTOGRAM) {
            const histogram = point.value as { count: number; sum?: number };
            points.push({ ...base, value: histogram.count, count: histogram.count, sum: histogram.sum ?? 0 });
          } else points.push({ ...base, value: point.value as number });
        }
      }
    }
    seen.push(...points);
    return points;
  };
  return {
    provider,
    meter: provider.getMeter("agui-rx"),
    collect,
    collectUntil: async (done, what) => {
      for (let turn = 0; turn < 1000; turn++) {
        const points = await collect();
        if (done(points)) return points;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      throw new Error(`expected ${what} within 1000 event-loop turns`);
    },
    points: async (name) => (await collect()).filter((point) => point.name === name),
    seen,
  };
}

/** The sum of the values of `points` whose attributes include `attributes`. */
export function total(points: readonly Point[], attributes: Readonly<Record<string, unknown>> = {}): number {
  return points
    .filter((point) => Object.entries(attributes).every(([key, value]) => point.attributes[key] === value))
    .reduce((sum, point) => sum + point.value, 0);
}

/**
 * Throws when a point carries an attribute that names a thread, a run or an owner: a key that says
 * so, or a value equal to one of `ids` (the ids the test used).
 */
export function checkCardinality(points: readonly Point[], ids: readonly string[]): void {
  for (const point of points) {
    for (const [key, value] of Object.entries(point.attributes)) {
      if (/thread|run[._]?id|owner|conversation/i.test(key) || (typeof value === "string" && ids.includes(value)))
        throw new Error(`expected no thread, run or owner attribute, but ${point.name} has ${key}=${JSON.stringify(value)}`);
    }
  }
}
