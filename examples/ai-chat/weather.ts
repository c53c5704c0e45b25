/**
 * The example's server tool, `get_weather`: it runs inside the run, on the server, and its result
 * goes back to the model in the same run (the SDK's tool loop). The weather comes from a fixed
 * table so the example works offline and the tests know what to expect; a real one would call a
 * weather service here.
 */
import * as t from "io-ts";
import { tool } from "ai";
import { ioTsSchema } from "./ioTsSchema";

/** The tool's name, as the model calls it. */
export const GET_WEATHER = "get_weather";

/** What the model asks with. */
export const WeatherQuery = t.type({ city: t.string }, "WeatherQuery");
export type WeatherQuery = t.TypeOf<typeof WeatherQuery>;

/** What the tool answers: today's weather in the city, in degrees Celsius. */
export const Weather = t.type({ city: t.string, celsius: t.number, sky: t.string }, "Weather");
export type Weather = t.TypeOf<typeof Weather>;

/** Today's weather in the cities the table knows, by lower-case name. */
const TABLE: ReadonlyMap<string, Weather> = new Map(
  (
    [
      { city: "Seoul", celsius: 21, sky: "sunny" },
      { city: "Busan", celsius: 23, sky: "windy" },
      { city: "Tokyo", celsius: 19, sky: "cloudy" },
      { city: "Auckland", celsius: 14, sky: "rainy" },
      { city: "Paris", celsius: 17, sky: "overcast" },
      { city: "London", celsius: 12, sky: "drizzly" },
      { city: "New York", celsius: 25, sky: "clear" },
    ] satisfies Weather[]
  ).map((entry) => [entry.city.toLowerCase(), entry]),
);

/** The cities `lookUpWeather` knows, for the tool's description and its error. */
export const KNOWN_CITIES: readonly string[] = [...TABLE.values()].map((entry) => entry.city);

/**
 * Today's weather in `city` (case and surrounding spaces do not matter). A city the table does not
 * have throws, naming the cities it has: the SDK turns that into the call's error result, which
 * the model reads and can explain.
 *
 * @example
 * lookUpWeather(" seoul ") // { city: "Seoul", celsius: 21, sky: "sunny" }
 */
export function lookUpWeather(city: string): Weather {
  const found = TABLE.get(city.trim().toLowerCase());
  if (found === undefined) throw new Error(`expected one of the cities ${KNOWN_CITIES.join(", ")}, but got ${JSON.stringify(city)}`);
  return found;
}

/**
 * `get_weather` as an AI SDK tool with `execute`: `aiAgent` runs it inside the run and the client
 * sees its call and result as TOOL_CALL_* events.
 *
 * @example
 * aiAgent({ model, tools: { [GET_WEATHER]: getWeather } });
 */
export const getWeather = tool({
  description: `Today's weather in a city (temperature in °C and the sky). Knows ${KNOWN_CITIES.join(", ")}.`,
  inputSchema: ioTsSchema(WeatherQuery),
  execute: async ({ city }: WeatherQuery): Promise<Weather> => lookUpWeather(city),
});
