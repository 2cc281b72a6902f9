// opencode, for real, against the fake model: issue 34's scenarios (scenarios.ts).
import { agentScenarios } from "./scenarios.ts";
import { opencode } from "./opencode.ts";

agentScenarios(opencode);
