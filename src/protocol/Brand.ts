/**
 * The one cross-copy brand of this library's error and report classes (docs/packaging.md): the ESM
 * and the CJS build are two copies of every class, so `instanceof` sees only its own copy's
 * instances, while a `Symbol.for` key is the same in both.
 */

/**
 * A brand for the instances of one class: `mark` puts a `Symbol.for(key)` flag on the class's
 * prototype (instances carry no own symbol, so equality, spreading and JSON are untouched), and
 * `is` recognises an instance of that class from any copy of the package. The key never changes
 * between versions, so two versions side by side recognise each other too.
 *
 * @example
 * const BRAND = new Brand<ProtocolError>("agui-rx/ProtocolError");
 * class ProtocolError extends Error {
 *   static { BRAND.mark(this); }
 *   static isInstance(value: unknown): value is ProtocolError { return BRAND.is(value); }
 * }
 */
export class Brand<T extends object> {
  private readonly key: symbol;
  /** This copy's branded class, once `mark` ran: its own instances are recognised without a symbol lookup. */
  private own: (abstract new (...args: never[]) => T) | undefined;

  constructor(key: string) {
    this.key = Symbol.for(key);
  }

  /**
   * Brands every instance of `constructor` (call it once, from the class's static block).
   *
   * @example
   * class DecodeError extends Error { static { DECODE_ERROR.mark(this); } }
   */
  mark(constructor: abstract new (...args: never[]) => T): void {
    Object.defineProperty(constructor.prototype, this.key, { value: true });
    this.own = constructor;
  }

  /**
   * Whether `value` is an instance of the branded class, from this or any other copy of the package.
   *
   * @example
   * DECODE_ERROR.is(new DecodeError("json", "SSE data is not JSON")); // true
   */
  is(value: unknown): value is T {
    if (typeof value !== "object" || value === null) return false;
    // The hot callers ask this of every event that streams past (isInBandReport), and events are
    // plain objects: their prototype answers for them, and `instanceof` for this copy's own
    // instances, without the symbol lookup that a stream of differently shaped objects makes slow
    // (megamorphic). Only an object with a class of its own that is not this copy's may be another
    // copy's instance.
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype === Object.prototype) return false;
    if (this.own !== undefined && prototype === this.own.prototype) return true;
    return Reflect.get(value, this.key) === true;
  }
}
