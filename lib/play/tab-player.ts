import { checkSampling } from "../gpu/generate/sampler";
import { parseConfig } from "../gpu/model/config";
import { jsonFile } from "../gpu/model/source";
import { ModelTokenizer } from "../gpu/model/tokenizer";
import { folderSource } from "../gpu/node/folder-source";
import { servedFolder } from "../gpu/node/served-weights";
import type { Player } from "../colbench/run-config";

// The run config's record of an agent generated in the collaborator's tab, made when the episode is:
// the policy folder the studio serves (what the tab will load), the chat template its prompts are
// written in and the sampling; a studio serving no policy, or one that cannot chat, is refused then.

export interface TabSampling {
  topP: number;
  seed: number;
}

export async function tabAgentPlayer(sampling: TabSampling): Promise<Player> {
  const folder = servedFolder("policy");
  if (!folder)
    throw new Error(
      "an agent in this tab generates with the policy weights the studio serves: start it with `colbench serve --policy-weights DIR`",
    );
  const source = folderSource(folder);
  parseConfig(await jsonFile(source, "config.json"), `${source.where}/config.json`);
  const tokenizer = await ModelTokenizer.load(source);
  if (!tokenizer.chatTemplate())
    throw new Error(
      `${source.where}: no chat_template.jinja and no chat_template in tokenizer_config.json, so the agent's conversation cannot be written for this model`,
    );
  checkSampling({ temperature: 0, topP: sampling.topP, seed: sampling.seed }, "the agent in this tab");
  return {
    human: true,
    tab: {
      model: folder,
      template: tokenizer.templateFamily() ?? "model's own chat_template",
      topP: sampling.topP,
      seed: sampling.seed,
    },
  };
}
