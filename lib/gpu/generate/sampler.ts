import { uniformIntDistribution, xoroshiro128plus, type RandomGenerator } from "pure-rand";

// Picking the next token from a step's logits: greedy (the first largest logit, as torch's argmax),
// or a draw at a temperature from the smallest set of most likely tokens whose probability reaches
// top-p (nucleus sampling), with a seeded generator so a seed gives the same tokens on every run.

export interface Sampling {
  /** 0 for greedy decoding. */
  temperature: number;
  /** Keep the most likely tokens up to this much probability (1: all of them). */
  topP: number;
  /** The generator's seed; the same seed draws the same tokens from the same logits. */
  seed: number;
}

export const GREEDY: Sampling = { temperature: 0, topP: 1, seed: 0 };

export function checkSampling(s: Sampling, where = "sampling"): Sampling {
  if (!(Number.isFinite(s.temperature) && s.temperature >= 0))
    throw new Error(`${where}: temperature must be a number ≥ 0 (got ${s.temperature})`);
  if (!(s.topP > 0 && s.topP <= 1)) throw new Error(`${where}: top-p must be in (0, 1] (got ${s.topP})`);
  if (!Number.isSafeInteger(s.seed)) throw new Error(`${where}: seed must be an integer (got ${s.seed})`);
  return s;
}

export function argmax(logits: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < logits.length; i++) if (logits[i]! > logits[best]!) best = i;
  return best;
}

export class TokenSampler {
  private generator: RandomGenerator;

  constructor(readonly sampling: Sampling) {
    checkSampling(sampling);
    // xoroshiro128+ takes a 32-bit seed; larger seeds are folded into one.
    this.generator = xoroshiro128plus(
      Number(BigInt.asIntN(32, BigInt(sampling.seed) ^ (BigInt(sampling.seed) >> 32n))),
    );
  }

  /** A uniform number in [0, 1) with 53 random bits. */
  private uniform(): number {
    const [high, g1] = uniformIntDistribution(0, (1 << 26) - 1, this.generator);
    const [low, g2] = uniformIntDistribution(0, (1 << 27) - 1, g1);
    this.generator = g2;
    return (high * 2 ** 27 + low) / 2 ** 53;
  }

  pick(logits: ArrayLike<number>): number {
    const { temperature, topP } = this.sampling;
    if (temperature === 0) return argmax(logits);
    const n = logits.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => logits[b]! - logits[a]! || a - b);
    const top = logits[order[0]!]!;
    const weights = order.map((t) => Math.exp((logits[t]! - top) / temperature));
    const total = weights.reduce((a, w) => a + w, 0);
    // The nucleus: tokens in order of probability until their mass reaches top-p (at least one).
    let kept = 0;
    let mass = 0;
    while (kept < n && (kept === 0 || mass < topP * total)) mass += weights[kept++]!;
    const draw = this.uniform() * mass;
    let cumulative = 0;
    for (let i = 0; i < kept; i++) {
      cumulative += weights[i]!;
      if (draw < cumulative) return order[i]!;
    }
    return order[kept - 1]!;
  }
}
