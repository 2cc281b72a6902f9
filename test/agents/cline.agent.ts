// Cline CLI, for real, against the fake model: issue 34's scenarios (scenarios.ts).
import { agentScenarios } from "./scenarios.ts";
import { cline } from "./cline.ts";

agentScenarios(cline);
