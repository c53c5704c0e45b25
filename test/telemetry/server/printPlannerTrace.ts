/** Prints the span tree docs/observability.md#traces shows: `node -r ts-node/register/transpile-only test/telemetry/server/printPlannerTrace.ts`. */
import { plannerTrace } from "./plannerTrace";

void plannerTrace().then((tree) => console.log(tree));
