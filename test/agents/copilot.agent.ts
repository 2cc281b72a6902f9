// GitHub Copilot CLI, for real, against the fake model: issue 34's scenarios (scenarios.ts).
import { agentScenarios } from "./scenarios.ts";
import { copilot } from "./copilot.ts";

agentScenarios(copilot);
