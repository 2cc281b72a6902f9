// What every screen needs: the engine session, the theme, and the app's exit and status line.
import { createContext, useContext } from "react";
import type { Session } from "../src/engine/session.ts";
import type { Theme } from "./theme.ts";

export interface UiContextValue {
  session: Session;
  theme: Theme;
  /** Leaves the TUI; `output` (a restore block) is printed to stdout after the terminal is restored. */
  exit: (output?: string) => void;
  /** Writes an escape sequence to the terminal (OSC 52 clipboard). */
  writeTerminal: (data: string) => void;
  now: () => Date;
  /**
   * Calls `fn` every `ms` of the app's clock and returns what stops it: what makes ages and expiries
   * shown on a screen follow the clock. Unset: real timers (a test moves its pinned clock and fires it).
   */
  every?: (ms: number, fn: () => void) => () => void;
}

export const UiContext = createContext<UiContextValue | null>(null);

export function useUi(): UiContextValue {
  const v = useContext(UiContext);
  if (!v) throw new Error("UiContext missing");
  return v;
}
