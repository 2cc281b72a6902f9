// Gemini CLI, for real, against the fake model: issue 34's scenarios (scenarios.ts).
import { agentScenarios } from "./scenarios.ts";
import { gemini } from "./gemini.ts";

agentScenarios(gemini);
