/** `npm run serve`'s command line: nothing, or `--redis <url>`; anything else refused, saying what was expected. */
import { parseServeArgs } from "../serveArgs";

test("no arguments: no store, as the endpoint always served", () => {
  expect(parseServeArgs([])).toEqual({ kind: "plain" });
});

test("--redis <url> and --redis=<url>: threads in that Redis (redis: and rediss:)", () => {
  expect(parseServeArgs(["--redis", "redis://127.0.0.1:6379"])).toEqual({ kind: "redis", url: "redis://127.0.0.1:6379" });
  expect(parseServeArgs(["--redis=rediss://user:secret@cache.example:6380/2"])).toEqual({ kind: "redis", url: "rediss://user:secret@cache.example:6380/2" });
});

test.each([
  [["--redis"], "expected a Redis URL after --redis, but the command line ends there"],
  [["--redis", "--port"], "expected a Redis URL after --redis, but the command line ends there"],
  [["--redis", "localhost:6379"], 'expected a redis: or rediss: URL after --redis, but got the localhost: URL "localhost:6379"'],
  [["--redis", "http://127.0.0.1:6379"], 'expected a redis: or rediss: URL after --redis, but got the http: URL "http://127.0.0.1:6379"'],
  [["--redis", "not a url"], 'expected a Redis URL such as redis://127.0.0.1:6379 after --redis, but got "not a url"'],
  [["--redis=redis://a:1", "--redis", "redis://b:2"], 'expected --redis once, but got it twice ("redis://a:1" and "redis://b:2")'],
  [["--memory"], 'expected --redis <url> or nothing, but got "--memory"'],
  [["redis://127.0.0.1:6379"], 'expected --redis <url> or nothing, but got "redis://127.0.0.1:6379"'],
])("%j is refused: %s", (argv, message) => {
  expect(parseServeArgs(argv)).toEqual({ kind: "error", message });
});
