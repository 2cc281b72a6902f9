// Settings a person switches with `mindsave config KEY [VALUE]`, kept in the store's meta table
// beside its other state (this store's own: a setting is not synced). Each key has its values and
// a default; an unknown key or value is refused in one sentence.
import { UserError } from "../../errors.ts";
import type { Session } from "../session.ts";

export const SETTINGS = {
  /** The prompt hook's pointer to what the store knows about a prompt (agents/prompt-recall.ts). */
  "prompt-recall": {
    values: ["on", "off"],
    default: "on",
    says: {
      on: "a prompt that names what MindSave knows gets a pointer to it",
      off: "prompts get no pointer to what MindSave knows (repeat warnings stay)",
    },
  },
  /** At the spec's moments the agent is asked to save a checkpoint (ask), or the hooks save one alone (auto), or neither (off). */
  checkpoints: {
    values: ["ask", "auto", "off"],
    default: "ask",
    says: {
      ask: "at a checkpoint moment the agent is asked to save one through MindSave, and the hooks save one too",
      auto: "at a checkpoint moment only the hooks save one; the agent is not asked",
      off: "at a checkpoint moment nothing is asked and nothing saved",
    },
  },
} as const;

/** What a setting's value does, in a few words: `config` says it when it shows or sets one. */
export function settingMeaning(key: SettingKey, value: string): string {
  return (SETTINGS[key].says as Record<string, string>)[value] ?? "";
}

export type SettingKey = keyof typeof SETTINGS;

const metaKey = (key: SettingKey) => `setting:${key}`;

/** The key, or a sentence naming the keys there are. */
export function settingKey(key: string): SettingKey {
  if (Object.hasOwn(SETTINGS, key)) return key as SettingKey;
  throw new UserError(`There is no setting "${key}"; the settings are: ${Object.keys(SETTINGS).join(", ")}.`);
}

/** A setting's value: the one set, else its default. */
export async function getSetting(session: Session, key: SettingKey): Promise<string> {
  return (await session.reader.getMeta(metaKey(key))) ?? SETTINGS[key].default;
}

/** Sets `key` to `value` (one of its values, else refused before anything is written). */
export async function setSetting(session: Session, key: SettingKey, value: string): Promise<void> {
  const values: readonly string[] = SETTINGS[key].values;
  if (!values.includes(value)) throw new UserError(`${key} is one of ${values.join(", ")}, not "${value}".`);
  await session.write((w) => w.setMeta(metaKey(key), value));
}
