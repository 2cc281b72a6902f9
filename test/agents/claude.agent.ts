// Claude Code, for real, against the fake model: issue 34's scenarios (scenarios.ts).
import { agentScenarios } from "./scenarios.ts";
import { claude } from "./claude.ts";

agentScenarios(claude);
