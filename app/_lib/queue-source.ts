import { z } from "zod";

/** Where a queue's pairs come from, as POST /api/queues and /api/queues/ID/pairs read it (lib/label/build.ts's QueueSource). */
export const queueSource = z.discriminatedUnion("from", [
  z.object({ from: z.literal("pairs"), run: z.string().min(1), kind: z.enum(["trajectory", "turn"]) }),
  z.object({
    from: z.literal("candidates"),
    run: z.string().min(1),
    pool: z.enum(["samples", "samples+own"]).optional(),
  }),
  z.object({ from: z.literal("runs"), a: z.string().min(1), b: z.string().min(1) }),
]);
