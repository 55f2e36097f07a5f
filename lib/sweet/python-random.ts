// CPython's `random` module, as far as SWEET-RL's published pair drawing uses it: the Mersenne
// Twister (MT19937) seeded the way `random.seed(int)` seeds it (init_by_array over the integer's
// 32-bit words, least significant first), `random()` (53 bits from two outputs), `getrandbits(k)`,
// `_randbelow(n)` (getrandbits of n's bit length, rejecting values >= n), `choice`, `shuffle` and
// `sample`. Same seed, same calls, same numbers as Python 3 (checked against CPython fixtures).

const N = 624;
const M = 397;

export class PythonRandom {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  constructor(seed: number | bigint) {
    this.seed(seed);
  }

  /** `random.seed(n)` for an integer n (its absolute value; 0 is one zero word). */
  seed(seed: number | bigint): void {
    let n = BigInt(seed);
    if (n < 0n) n = -n;
    const key: number[] = [];
    do {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    } while (n > 0n);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** One 32-bit output. */
  uint32(): number {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k]! & 0x80000000) | (mt[(k + 1) % N]! & 0x7fffffff);
        mt[k] = mt[(k + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random.random()`: a float in [0, 1) with 53 random bits. */
  random(): number {
    const a = this.uint32() >>> 5;
    const b = this.uint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `random.getrandbits(k)` for 0 <= k <= 32 (all the drawing here needs). */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0 || k > 32) throw new RangeError(`getrandbits: k must be 0..32, got ${k}`);
    if (k === 0) return 0;
    return this.uint32() >>> (32 - k);
  }

  /** `random._randbelow(n)`: an integer in [0, n), n >= 1. */
  randbelow(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > 0xffffffff)
      throw new RangeError(`randbelow: n must be a positive 32-bit integer, got ${n}`);
    const k = n.toString(2).length;
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** `random.randint(a, b)`. */
  randint(a: number, b: number): number {
    return a + this.randbelow(b - a + 1);
  }

  /** `random.choice(seq)`. */
  choice<T>(seq: readonly T[]): T {
    if (!seq.length) throw new RangeError("choice from an empty sequence");
    return seq[this.randbelow(seq.length)]!;
  }

  /** `random.shuffle(x)` in place. */
  shuffle<T>(x: T[]): void {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      [x[i], x[j]] = [x[j]!, x[i]!];
    }
  }

  /** `random.sample(population, k)` (both of CPython's strategies: a pool for small populations, a set otherwise). */
  sample<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    if (k < 0 || k > n) throw new RangeError("sample larger than population or is negative");
    const result = new Array<T>(k);
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(3 * k) / Math.log(4));
    if (n <= setsize) {
      const pool = [...population];
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j]!;
        pool[j] = pool[n - i - 1]!;
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = population[j]!;
      }
    }
    return result;
  }
}
