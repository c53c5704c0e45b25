/** How many bytes a text takes in UTF-8, counted without encoding it (docs/observability.md#inspector). */

/**
 * The UTF-8 byte length of `text`: 1 byte per code point below U+0080, 2 below U+0800, 4 for a
 * surrogate pair, 3 otherwise (a lone surrogate too: it is written as U+FFFD). Counted by code
 * units, so that no buffer is made and no `TextEncoder` is needed (jsdom has none).
 *
 * @example
 * utf8Length("héllo 👋"); // 11
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
