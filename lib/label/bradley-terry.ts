import { Rng } from "./rng";

// Bradley-Terry strengths from pairwise games (P(i beats j) = p_i / (p_i + p_j)), fitted with
// Hunter's MM updates; a tie is half a win to each side. `prior` adds that many virtual tied
// games to every pair of players that met, so a player who never won still has a finite rating.
// Ratings are on the Elo scale: 1000 + 400 log10(p_i), strengths scaled to a geometric mean of 1.

export interface Game<K> {
  a: K;
  b: K;
  /** a's score: 1 a won, 0 b won, 0.5 a tie. */
  score: number;
}

export interface Rating<K> {
  player: K;
  rating: number;
  games: number;
  /** Bootstrap percentile interval (95% unless asked otherwise). */
  low?: number;
  high?: number;
}

export function fitBradleyTerry<K>(
  games: Game<K>[],
  options: { prior?: number; iterations?: number; tolerance?: number } = {},
): Map<K, number> {
  const prior = options.prior ?? 1;
  const players = [...new Set(games.flatMap((g) => [g.a, g.b]))];
  const at = new Map(players.map((p, i) => [p, i]));
  const n = players.length;
  const wins = new Array<number>(n).fill(0);
  const met = players.map(() => new Array<number>(n).fill(0));
  for (const g of games) {
    const i = at.get(g.a)!;
    const j = at.get(g.b)!;
    if (i === j) continue;
    wins[i]! += g.score;
    wins[j]! += 1 - g.score;
    met[i]![j]! += 1;
    met[j]![i]! += 1;
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j || met[i]![j]! === 0) continue;
      // Each pair's virtual ties, counted once from each side.
      wins[i]! += prior / 2;
      met[i]![j]! += prior;
    }
  }
  let p = new Array<number>(n).fill(1);
  for (let iteration = 0; iteration < (options.iterations ?? 10_000); iteration++) {
    const next = p.map((pi, i) => {
      let denominator = 0;
      for (let j = 0; j < n; j++) if (j !== i && met[i]![j]! > 0) denominator += met[i]![j]! / (pi + p[j]!);
      return denominator > 0 ? wins[i]! / denominator : pi;
    });
    const scale = Math.exp(next.reduce((s, x) => s + Math.log(Math.max(x, 1e-300)), 0) / n);
    const scaled = next.map((x) => x / scale);
    const change = Math.max(
      ...scaled.map((x, i) => Math.abs(Math.log(Math.max(x, 1e-300)) - Math.log(Math.max(p[i]!, 1e-300)))),
    );
    p = scaled;
    if (change < (options.tolerance ?? 1e-12)) break;
  }
  return new Map(players.map((player, i) => [player, p[i]!]));
}

export const eloOf = (strength: number) => 1000 + 400 * Math.log10(strength);

/** Ratings with bootstrap intervals: the games resampled with replacement `rounds` times (seeded). */
export function bradleyTerryRatings<K>(
  games: Game<K>[],
  options: { prior?: number; rounds?: number; seed?: number; level?: number } = {},
): Rating<K>[] {
  const fitted = fitBradleyTerry(games, options);
  const counts = new Map<K, number>();
  for (const g of games) {
    counts.set(g.a, (counts.get(g.a) ?? 0) + 1);
    counts.set(g.b, (counts.get(g.b) ?? 0) + 1);
  }
  const rounds = options.rounds ?? 200;
  const samples = new Map<K, number[]>([...fitted.keys()].map((k) => [k, []]));
  const rng = new Rng(options.seed ?? 7);
  for (let r = 0; r < rounds && games.length; r++) {
    const drawn = Array.from({ length: games.length }, () => games[rng.below(games.length)]!);
    const strengths = fitBradleyTerry(drawn, options);
    // A player missing from a resample has no rating in it.
    for (const [k, s] of strengths) samples.get(k)?.push(eloOf(s));
  }
  const tail = (1 - (options.level ?? 0.95)) / 2;
  return [...fitted]
    .map(([player, strength]) => {
      const xs = samples.get(player)!.sort((a, b) => a - b);
      const pick = (q: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.round(q * (xs.length - 1))))];
      return { player, rating: eloOf(strength), games: counts.get(player) ?? 0, low: pick(tail), high: pick(1 - tail) };
    })
    .sort((x, y) => y.rating - x.rating);
}
