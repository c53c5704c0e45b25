/** Which strings are cursors of the Redis store (pure): only entry ids as XADD makes them ever reach Redis. */
import { isStreamId } from "../../src/redis/streamIds";

test.each(["0-0", "0-1", "1718000000000-0", "1718000000000-42", "9999999999999999999-9999999999999999999"])("%j is an entry id", (cursor) => {
  expect(isStreamId(cursor)).toBe(true);
});

test.each([
  "",
  "0",
  "-",
  "+",
  "$",
  "1718000000000",
  "1718000000000-",
  "-1",
  "01-1",
  "1-01",
  "1-2-3",
  "1 -2",
  "1-2\n",
  " 1-2",
  "a-b",
  "10000000000000000000-0",
  "s1.0.12",
  "1e3-0",
])("%j is not (so it takes the snapshot path and never reaches Redis)", (cursor) => {
  expect(isStreamId(cursor)).toBe(false);
});
