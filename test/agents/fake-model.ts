// A scripted fake model for the real agent CLIs: one Bun server on 127.0.0.1 (a free port) that
// speaks the four wire protocols the agents use — Anthropic Messages, OpenAI Responses, Chat
// Completions and Gemini (streamGenerateContent over SSE, generateContent) — and records every
// request, so a test asserts on what the model was sent (the restore block, a tool's result).
//
// The script of a test: the tool calls the model makes, one per turn (a shell command, a named
// tool such as an MCP tool, a file write), then its final text; and reactions, calls made when
// what the request newly holds asks for them (a hook's request to save). Requests that offer no
// tools (titles, classifiers, routers) get the final text, or a JSON object shaped to the schema asked.

/** One tool call of the script. */
export type ScriptedCall =
  | { shell: string }
  | { tool: RegExp; args: Record<string, unknown> }
  | { write: { path: string; content: string } };

/**
 * A call the model makes when the request's newest part (everything after the model's own last
 * turn: the user's text, tool results, what a hook added) contains `when`. A hook that blocks an
 * agent's stop adds text but no tool result, so the scripted calls (picked by the count of tool
 * results) cannot answer it.
 */
export interface Reaction {
  when: string;
  call: ScriptedCall;
  /**
   * Look in the whole request (its system prompt too), for an agent whose hook puts the text there
   * for every request of a turn (opencode's plugin): then the call is made once per script.
   */
  anywhere?: boolean;
}

export interface ModelScript {
  /** Made in order, one per model turn that offers tools; a turn after the last one answers `final`. */
  calls: ScriptedCall[];
  /** The model's last words (default "done"). */
  final?: string;
  /** Tried first, in order, on every turn that offers tools. */
  reactions?: Reaction[];
  /**
   * The prompt tokens every answer reports as used (default 10): the agent records them in its
   * transcript, where MindSave measures how full the context window is.
   */
  promptTokens?: number;
}

export type Protocol = "anthropic" | "responses" | "chat" | "gemini";

/** A request the model received, as sent. */
export interface ModelRequest {
  protocol: Protocol;
  path: string;
  body: any;
  /** The names of the tools it offered (an MCP namespace's tools as `<namespace>__<tool>`). */
  tools: string[];
  /** What it held after the model's own last turn, as JSON text: what this request brought new. */
  newest: string;
  /** What the model answered: `tool:<name>`, or `text`. */
  reply: string;
  /** The kind of tool it called: a write falls back to the shell where the agent has no write tool. */
  called?: "shell" | "write" | "tool";
}

/** A tool the agent offered, with its input schema. */
interface OfferedTool {
  name: string;
  schema: any;
  /** Codex groups an MCP server's tools under a namespace: the answer names both. */
  namespace?: string;
  inner?: string;
}

/** The call the model answers with: the tool and its arguments. */
interface Chosen {
  tool: OfferedTool;
  args: Record<string, unknown>;
  kind: "shell" | "write" | "tool";
}

/** The agents' shell tools, by the names they give them. */
const SHELL_TOOLS = [
  "Bash",
  "bash",
  "shell",
  "exec_command",
  "run_shell_command",
  "run_commands",
  "execute_command",
];
/** The agents' file-writing tools (Cline's CLI: `editor`, which creates a file from `path` and `new_text`). */
const WRITE_TOOLS = ["Write", "write_file", "write", "create", "edit", "editor"];

let counter = 0;
const uid = (prefix: string) => `${prefix}_${(++counter).toString(36)}${Date.now().toString(36)}`;

/** Arguments for the shell tool the agent offered, by what its schema asks for. */
function shellArgs(tool: OfferedTool, command: string): Record<string, unknown> {
  const props = tool.schema?.properties ?? {};
  const args: Record<string, unknown> = {};
  if ("commands" in props) args.commands = [command];
  else if ("cmd" in props) args.cmd = command;
  else if (String(props.command?.type ?? "").toLowerCase() === "array")
    args.command = ["bash", "-lc", command];
  else args.command = command;
  if ("description" in props) args.description = "run a shell command";
  for (const key of tool.schema?.required ?? []) if (!(key in args)) args[key] = placeholder(props[key]);
  return args;
}

/** A value for a required argument the script says nothing about. */
function placeholder(prop: any): unknown {
  const type = String(prop?.type ?? "string").toLowerCase();
  if (type === "boolean") return false;
  if (type === "number" || type === "integer") return 30000;
  if (type === "array") return [];
  if (type === "object") return {};
  return "x";
}

/** Arguments for a file-writing tool: its path and content keys vary by agent. */
function writeArgs(tool: OfferedTool, path: string, content: string): Record<string, unknown> {
  const props = tool.schema?.properties ?? {};
  const pathKey = ["file_path", "filePath", "path", "absolute_path"].find((k) => k in props) ?? "file_path";
  const contentKey = ["content", "file_text", "text", "new_text"].find((k) => k in props) ?? "content";
  return { [pathKey]: path, [contentKey]: content };
}

/** The call a scripted step makes with the tools offered; undefined when none fits. */
function choose(step: ScriptedCall, tools: OfferedTool[]): Chosen | undefined {
  if ("tool" in step) {
    const tool = tools.find((t) => step.tool.test(t.name));
    return tool && { tool, args: step.args, kind: "tool" };
  }
  if ("write" in step) {
    const tool = WRITE_TOOLS.map((n) => tools.find((t) => t.name === n)).find(Boolean);
    if (tool) return { tool, args: writeArgs(tool, step.write.path, step.write.content), kind: "write" };
    // No write tool (Codex patches files): the shell writes it.
    return choose(
      { shell: `printf '%s' ${shellQuote(step.write.content)} > ${shellQuote(step.write.path)}` },
      tools,
    );
  }
  const tool = SHELL_TOOLS.map((n) => tools.find((t) => t.name === n)).find(Boolean);
  return tool && { tool, args: shellArgs(tool, step.shell), kind: "shell" };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A JSON object shaped to a requested schema (Gemini's router and next-speaker checks). */
function shapedJson(schema: any): string {
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries<any>(schema?.properties ?? {})) {
    if (key === "next_speaker") out[key] = "user";
    else if (Array.isArray(prop.enum)) out[key] = prop.enum[0];
    else out[key] = placeholder(prop) === "x" ? "fake" : placeholder(prop);
  }
  return JSON.stringify(out);
}

const event = (name: string | null, data: unknown) =>
  `${name ? `event: ${name}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
const sse = (events: string[]) =>
  new Response(events.join(""), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });

/** The server's view of one turn: the tools offered, how many tool results came back so far. */
interface Turn {
  tools: OfferedTool[];
  results: number;
  /** What came after the model's own last turn, as JSON text (what a reaction looks in). */
  newest: string;
}

/** The items after the last one `byModel` says the model wrote, as JSON text. */
function newestText(items: unknown[], byModel: (item: any) => boolean): string {
  const last = items.findLastIndex((item) => byModel(item ?? {}));
  return JSON.stringify(items.slice(last + 1));
}

/** Anthropic Messages (Claude Code): `tool_use` blocks out, `tool_result` blocks back. */
function anthropicTurn(body: any): Turn {
  const results = (body.messages ?? [])
    .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
    .filter((c: any) => c.type === "tool_result").length;
  const tools = (body.tools ?? []).map((t: any) => ({ name: t.name, schema: t.input_schema }));
  return { tools, results, newest: newestText(body.messages ?? [], (m) => m.role === "assistant") };
}

function anthropicReply(body: any, call: Chosen | undefined, final: string, tokens: number): Response {
  const usage = {
    input_tokens: tokens,
    output_tokens: 5,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  const block = call
    ? { type: "tool_use", id: uid("toolu"), name: call.tool.name, input: call.args }
    : { type: "text", text: final };
  const stop = call ? "tool_use" : "end_turn";
  const message = { id: uid("msg"), type: "message", role: "assistant", model: body.model ?? "fake", usage };
  if (!body.stream)
    return Response.json({ ...message, content: [block], stop_reason: stop, stop_sequence: null });
  const start = call ? { ...block, input: {} } : { type: "text", text: "" };
  const delta = call
    ? { type: "input_json_delta", partial_json: JSON.stringify(call.args) }
    : { type: "text_delta", text: final };
  return sse([
    event("message_start", {
      type: "message_start",
      message: { ...message, content: [], stop_reason: null },
    }),
    event("content_block_start", { type: "content_block_start", index: 0, content_block: start }),
    event("content_block_delta", { type: "content_block_delta", index: 0, delta }),
    event("content_block_stop", { type: "content_block_stop", index: 0 }),
    event("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stop },
      usage: { output_tokens: 5 },
    }),
    event("message_stop", { type: "message_stop" }),
  ]);
}

/** OpenAI Responses (Codex): `function_call` items out, `*_call_output` items back. */
function responsesTurn(body: any): Turn {
  const input: any[] = Array.isArray(body.input) ? body.input : [];
  const results = input.filter((i) => /_call_output$/.test(i?.type ?? "")).length;
  const tools = (body.tools ?? []).flatMap((t: any) =>
    t.type === "namespace"
      ? (t.tools ?? []).map((u: any) => ({
          name: `${t.name}__${u.name}`,
          schema: u.parameters,
          namespace: t.name,
          inner: u.name,
        }))
      : t.name
        ? [{ name: t.name, schema: t.parameters }]
        : [],
  );
  // The model's turns: its messages and calls (reasoning too); a hook's message has role "user".
  const byModel = (i: any) =>
    i.role === "assistant" || /^(function_call|custom_tool_call|reasoning)$/.test(i.type);
  return { tools, results, newest: newestText(input, byModel) };
}

function responsesReply(body: any, call: Chosen | undefined, final: string, tokens: number): Response {
  const item = call
    ? {
        type: "function_call",
        id: uid("fc"),
        call_id: uid("call"),
        name: call.tool.inner ?? call.tool.name,
        ...(call.tool.namespace ? { namespace: call.tool.namespace } : {}),
        arguments: JSON.stringify(call.args),
        status: "completed",
      }
    : {
        type: "message",
        id: uid("msg"),
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: final, annotations: [] }],
      };
  const usage = {
    input_tokens: tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: tokens + 5,
  };
  const response = (status: string, output: unknown[]) => ({
    id: uid("resp"),
    object: "response",
    created_at: 1767225600,
    status,
    model: body.model ?? "fake",
    output,
    usage: status === "completed" ? usage : null,
  });
  if (body.stream === false) return Response.json(response("completed", [item]));
  let seq = 0;
  const ev = (type: string, fields: object) => event(type, { type, sequence_number: seq++, ...fields });
  const where = { item_id: item.id, output_index: 0 };
  const events = [ev("response.created", { response: response("in_progress", []) })];
  const opened = call ? { ...item, arguments: "" } : { ...item, content: [] };
  events.push(
    ev("response.output_item.added", { output_index: 0, item: { ...opened, status: "in_progress" } }),
  );
  if (call) {
    const args = JSON.stringify(call.args);
    events.push(ev("response.function_call_arguments.delta", { ...where, delta: args }));
    events.push(ev("response.function_call_arguments.done", { ...where, arguments: args }));
  } else {
    const part = { type: "output_text", text: final, annotations: [] };
    events.push(
      ev("response.content_part.added", { ...where, content_index: 0, part: { ...part, text: "" } }),
    );
    events.push(ev("response.output_text.delta", { ...where, content_index: 0, delta: final }));
    events.push(ev("response.output_text.done", { ...where, content_index: 0, text: final }));
    events.push(ev("response.content_part.done", { ...where, content_index: 0, part }));
  }
  events.push(ev("response.output_item.done", { output_index: 0, item }));
  events.push(ev("response.completed", { response: response("completed", [item]) }));
  return sse(events);
}

/** Chat Completions (opencode, Cline, Copilot): `tool_calls` out, `tool` messages back. */
function chatTurn(body: any): Turn {
  const results = (body.messages ?? []).filter((m: any) => m.role === "tool").length;
  const tools = (body.tools ?? []).map((t: any) => ({
    name: t.function?.name ?? t.name,
    schema: t.function?.parameters ?? t.parameters,
  }));
  return { tools, results, newest: newestText(body.messages ?? [], (m) => m.role === "assistant") };
}

function chatReply(body: any, call: Chosen | undefined, final: string, tokens: number): Response {
  const id = uid("chatcmpl");
  const model = body.model ?? "fake";
  const created = 1767225600;
  const toolCall = call && {
    id: uid("call"),
    type: "function",
    function: { name: call.tool.name, arguments: JSON.stringify(call.args) },
  };
  const finish = call ? "tool_calls" : "stop";
  const usage = { prompt_tokens: tokens, completion_tokens: 5, total_tokens: tokens + 5 };
  if (!body.stream) {
    const message = {
      role: "assistant",
      content: call ? null : final,
      ...(toolCall ? { tool_calls: [toolCall] } : {}),
    };
    return Response.json({
      id,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
  }
  const chunk = (delta: unknown, finishReason: string | null) =>
    event(null, {
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
  return sse([
    chunk({ role: "assistant", content: "" }, null),
    chunk(toolCall ? { tool_calls: [{ index: 0, ...toolCall }] } : { content: final }, null),
    chunk({}, finish),
    event(null, { id, object: "chat.completion.chunk", created, model, choices: [], usage }),
    event(null, "[DONE]"),
  ]);
}

/** Gemini (Gemini CLI): `functionCall` parts out, `functionResponse` parts back. */
function geminiTurn(body: any): Turn {
  const parts = (body.contents ?? []).flatMap((c: any) => c.parts ?? []);
  const results = parts.filter((p: any) => p.functionResponse).length;
  const tools = (body.tools ?? []).flatMap((t: any) =>
    (t.functionDeclarations ?? []).map((f: any) => ({
      name: f.name,
      schema: f.parameters ?? f.parametersJsonSchema,
    })),
  );
  return { tools, results, newest: newestText(body.contents ?? [], (c) => c.role === "model") };
}

function geminiReply(
  body: any,
  call: Chosen | undefined,
  final: string,
  tokens: number,
  streaming: boolean,
): Response {
  const config = body.generationConfig ?? {};
  let part: unknown;
  if (call) part = { functionCall: { name: call.tool.name, args: call.args } };
  else if (config.responseMimeType === "application/json")
    part = { text: shapedJson(config.responseJsonSchema ?? config.responseSchema) };
  else part = { text: final };
  const response = {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: tokens, candidatesTokenCount: 5, totalTokenCount: tokens + 5 },
    modelVersion: "fake",
  };
  return streaming ? sse([event(null, response)]) : Response.json(response);
}

/** A running fake model: its URL, what it received, its script. */
export interface FakeModel {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: ModelRequest[];
  /** Sets the script for the next agent run (and forgets the requests recorded so far). */
  script(next: ModelScript): void;
  /** The requests of the agent's own conversation (those that offered tools), in order. */
  conversation(): ModelRequest[];
  stop(): void;
}

/**
 * Answers one turn by the script: a reaction to what it newly holds (or, `anywhere`, to what the
 * whole request holds, once), the next scripted call, or the final text.
 */
function answer(turn: Turn, script: ModelScript, body: unknown, reacted: Set<Reaction>): Chosen | undefined {
  if (turn.tools.length === 0) return undefined;
  const holds = (r: Reaction) =>
    r.anywhere ? !reacted.has(r) && JSON.stringify(body).includes(r.when) : turn.newest.includes(r.when);
  const reaction = (script.reactions ?? []).find(holds);
  if (reaction?.anywhere) reacted.add(reaction);
  const step = reaction?.call ?? script.calls[turn.results];
  return step && choose(step, turn.tools);
}

export function startFakeModel(initial: ModelScript = { calls: [] }): FakeModel {
  let script = initial;
  const reacted = new Set<Reaction>();
  const requests: ModelRequest[] = [];
  const record = (protocol: Protocol, path: string, body: any, turn: Turn, call: Chosen | undefined) =>
    requests.push({
      protocol,
      path,
      body,
      tools: turn.tools.map((t) => t.name),
      newest: turn.newest,
      reply: call ? `tool:${call.tool.name}` : "text",
      ...(call ? { called: call.kind } : {}),
    });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 120,
    async fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname;
      const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
      const final = script.final ?? "done";
      const tokens = script.promptTokens ?? 10;
      if (req.method !== "POST") {
        // Model lists (opencode, Cline probe them): one model.
        const list = {
          object: "list",
          data: [{ id: "fake-model", object: "model", created: 0, owned_by: "fake" }],
        };
        return Response.json({ ...list, models: [] });
      }
      if (path.endsWith("/messages/count_tokens")) return Response.json({ input_tokens: 10 });
      if (path.endsWith("/messages")) {
        const turn = anthropicTurn(body);
        const call = answer(turn, script, body, reacted);
        record("anthropic", path, body, turn, call);
        return anthropicReply(body, call, final, tokens);
      }
      if (path.endsWith("/responses")) {
        const turn = responsesTurn(body);
        const call = answer(turn, script, body, reacted);
        record("responses", path, body, turn, call);
        return responsesReply(body, call, final, tokens);
      }
      if (path.endsWith("/chat/completions")) {
        const turn = chatTurn(body);
        const call = answer(turn, script, body, reacted);
        record("chat", path, body, turn, call);
        return chatReply(body, call, final, tokens);
      }
      const gemini = path.match(/\/models\/[^/:]+:(\w+)$/);
      if (gemini?.[1] === "countTokens") return Response.json({ totalTokens: 10 });
      if (gemini) {
        const turn = geminiTurn(body);
        const call = answer(turn, script, body, reacted);
        record("gemini", path + url.search, body, turn, call);
        return geminiReply(body, call, final, tokens, gemini[1] === "streamGenerateContent");
      }
      return Response.json({ error: { message: `fake model: no route for ${path}` } }, { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    script(next) {
      script = next;
      reacted.clear();
      requests.length = 0;
    },
    conversation: () => requests.filter((r) => r.tools.length > 0),
    stop: () => server.stop(true),
  };
}

/** Everything a request sent the model, as one string to search (system prompt, messages, tool results). */
export function requestText(request: ModelRequest): string {
  return JSON.stringify(request.body);
}
