// What the mechanical snapshot reads in the user's words (task-words.ts), in-process: the sentences,
// what is and is not a rule, what was pasted, the task apart from its rules (issue 35).
import { expect, test } from "bun:test";
import {
  isRule,
  namesNoTask,
  ownWords,
  promptRules,
  sentencesOf,
  statedNextStep,
  taskOf,
} from "../src/engine/agents/task-words.ts";
import {
  autoSnapshotInput,
  isContinuation,
  UNKNOWN_GOAL,
  UNNAMED_GOAL,
} from "../src/engine/agents/auto-snapshot.ts";
import { emptyFacts } from "../src/engine/agents/transcript.ts";
import type { SnapshotRecord } from "../src/store/records.ts";

test("a dot inside a word closes no sentence: file names, versions, members", () => {
  expect(sentencesOf("Only touch src/commands/deploy.ts and its test. Tag v2.3.0 after.")).toEqual([
    "Only touch src/commands/deploy.ts and its test.",
    "Tag v2.3.0 after.",
  ]);
  expect(sentencesOf("禁止直接调用 window.confirm，只能用 Modal。")).toEqual([
    "禁止直接调用 window.confirm，只能用 Modal。",
  ]);
});

test("rule words that state no rule: a guess, a fact, a habit told, reassurance, 不对劲", () => {
  for (const s of [
    "You must be sick of the flaky e2e tests by now.",
    "The nightly job must be failing since Tuesday.",
    "It only takes a second to reproduce.",
    "The only thing left for the release is the changelog.",
    "I always forget how our release script works.",
    "The update will never happen.",
    "Don't worry about it.",
    "别担心时间，慢慢来。",
    "测试结果不对劲，数字字面量 1e3 解析错了。",
    "登录页的验证码经常识别失败，换成滑块验证吧。",
    "这两个接口的区别特别大。",
    "Make the login test wait for the network to be idle instead of sleeping 3 seconds.",
  ])
    expect([s, isRule(s)]).toEqual([s, false]);
  for (const s of [
    "Never use Redis for it: we only have Postgres in production.",
    "Only touch src/commands/deploy.ts and its test",
    "Always print the plan as a table",
    "Use zod for the schemas, we already depend on it.",
    "Use the existing CacheStore class instead of a new Map.",
    "It must run in CI and fail the build on unformatted files.",
    "别用 will-change，上次加了之后内存涨得厉害。",
  ])
    expect([s, isRule(s)]).toEqual([s, true]);
});

test("a limit told as an order is a rule; the same words in a fact or an aside are not", () => {
  for (const s of [
    "No new dependencies, and keep the response shape backwards compatible.",
    "Leave the class components as they are; just fix what breaks.",
    "Actually skip mypy for now, it's too slow on CI.",
    "配置文件格式只支持 TOML。",
    "时间一律按 UTC 存储，展示时再转换。",
    "接口的返回格式保持不变。",
  ])
    expect([s, isRule(s)]).toEqual([s, true]);
  for (const s of [
    "No problem, take your time.",
    "Keep going.",
    "I only have an hour before the demo.",
    "You always write such long commit messages, haha.",
    "这张表有两千万行数据。",
    "效果好得不得了。",
  ])
    expect([s, isRule(s)]).toEqual([s, false]);
});

test("a pasted log or fenced block is neither the task nor a rule", () => {
  const prompt =
    "The loader crashes on empty files:\n```\nError: config must be an object\n```\nWarning: it will only fail once\n    at load (src/load.ts:42:17)\nMake an empty file load as the defaults.";
  expect(ownWords(prompt).split("\n").filter(Boolean)).toEqual([
    "The loader crashes on empty files:",
    "Make an empty file load as the defaults.",
  ]);
  expect(promptRules([prompt], [])).toEqual([]);
  expect(taskOf(prompt)).toBe("Make an empty file load as the defaults");
});

test("the task is what the prompt asks for: a polite question unwrapped, the sentence a request points back at", () => {
  expect(
    taskOf(
      "Can you add retries to the S3 upload helper? It only fails on large files. Use exponential backoff.",
    ),
  ).toBe("Add retries to the S3 upload helper");
  expect(
    taskOf("The checkout test fails one run in five. It only takes a second. Find the race and fix it."),
  ).toBe("The checkout test fails one run in five. Find the race and fix it");
  // A rule asked for politely is still a rule, not the task.
  expect(
    taskOf("Add a changelog generator. Please make sure running it twice must not duplicate entries."),
  ).toBe("Add a changelog generator");
  expect(taskOf("Add rate limiting to the login endpoint. Never use Redis for it.")).toBe(
    "Add rate limiting to the login endpoint",
  );
  expect(taskOf("给用户列表页加分页，每页 20 条。不要改后端接口，只改前端。")).toBe(
    "给用户列表页加分页，每页 20 条",
  );
  expect(taskOf("构建挂了，日志如下：\n```\nerror: only one default export\n```\n帮我修好构建。")).toBe(
    "修好构建",
  );
  expect(taskOf("请求超时的问题还在。帮我查一下网关的超时设置。")).toBe("查一下网关的超时设置");
});

test("a Chinese task and its rules in one opening sentence are told apart; a rule that opens its sentence keeps its reason", () => {
  const prompt = "把 README 翻译成英文，术语表里的词保持原样，不用翻译代码注释。";
  expect(taskOf(prompt)).toBe("把 README 翻译成英文");
  expect(promptRules([prompt], [])).toEqual(["术语表里的词保持原样，不用翻译代码注释。"]);
  expect(promptRules(["不要用 Redis，我们生产环境只有 Postgres。"], [])).toEqual([
    "不要用 Redis，我们生产环境只有 Postgres。",
  ]);
  // Only the opening sentence names the task: a later one keeps its first clause with its rule.
  expect(promptRules(["Add i18n. 中文翻译用简体，不要用机器翻译的结果直接提交。"], [])).toEqual([
    "中文翻译用简体，不要用机器翻译的结果直接提交。",
  ]);
});

test("a second instruction opened by 'then' is part of the task, also after a private span's mark", () => {
  expect(taskOf("Fix the deploy script. Then run it.")).toBe("Fix the deploy script. Then run it.");
  expect(taskOf("Fix the deploy script. [private] Then run it.")).toBe(
    "Fix the deploy script. [private] Then run it.",
  );
  // Context before the request is still left out.
  expect(taskOf("The build is red since Monday. Fix the flaky test, then push.")).toBe(
    "Fix the flaky test, then push",
  );
});

test("the next step said as what is left of the task, in English and Chinese; a count of what remains is none", () => {
  const said: [string, string][] = [
    [
      "The secret is read once. What remains is a test for a replayed delivery ID.",
      "A test for a replayed delivery ID",
    ],
    ["All green. Remaining: drop jest from the devDependencies.", "Drop jest from the devDependencies"],
    ["The column is in. Still to do: run the backfill on staging.", "Run the backfill on staging"],
    ["Done locally. What\u2019s left is watching two nightly runs.", "Watching two nightly runs"],
    ["Merged rows are listed. The remaining piece is the progress bar.", "The progress bar"],
    ["通知已经接上了。还差：给导出任务加失败重试。", "给导出任务加失败重试"],
    ["接口改好了。剩下的就是补文档。", "补文档"],
    ["都迁完了。还剩最后一件：把旧的 crontab 条目删掉。", "把旧的 crontab 条目删掉"],
    ["Thumbnails work. Next steps: backfill the old photos.", "Backfill the old photos"],
  ];
  for (const [reply, step] of said) expect([reply, statedNextStep(reply)]).toEqual([reply, step]);
  for (const reply of [
    "Remaining tests pass on CI.",
    "What remains unclear is the cause.",
    "还剩两个测试没过。",
    "还剩一个，明天再说。",
    // A heading whose list follows on the next lines (next-step.ts reads it) is no step itself.
    "Next steps:",
  ])
    expect([reply, statedNextStep(reply)]).toEqual([reply, null]);
});

/** Each sentence judged a rule (or not), named in the failure. */
function judged(rule: boolean, sentences: string[]): void {
  for (const s of sentences) expect([s, isRule(s)]).toEqual([s, rule]);
}

test("a requirement put on the work or a limit told by its number is a rule; one on a person, a deadline, a guess is not", () => {
  judged(true, [
    "It has to return 429 with a Retry-After header, clients depend on that.",
    "heads up: the date pickers have to keep accepting the old DD/MM/YYYY strings.",
    "The users table is hot, so the migration can't lock it for more than a couple of seconds.",
    "It should be at /healthz, outside the auth middleware.",
    "Retry at most 3 times.",
    "最多重试 3 次，每次之间至少等 200ms。",
    "单个文件上限 50MB，超了就拆成多个。",
  ]);
  judged(false, [
    "I have to leave at five today.",
    "We can't reproduce it locally.",
    "The build can't find the module after the upgrade.",
    "That should fix it.",
    "It has to ship by Friday.",
    "老板说这个功能明天必须上线，压力好大。",
    "This might sound dumb, but I never understood our build cache.",
    // A number's limit inside the request is the task's.
    "Add input validation to the signup form: a password of at least 12 characters.",
  ]);
});

test("a line opened by a log level in capitals is pasted, not a rule", () => {
  const prompt = "It fails one run in five:\nWARN retries must be disabled for deterministic runs\nFix it.";
  expect(ownWords(prompt).split("\n")).toEqual(["It fails one run in five:", "Fix it."]);
  expect(promptRules([prompt], [])).toEqual([]);
  expect(promptRules(["Warn the user before the delete. Never delete without asking."], [])).toEqual([
    "Never delete without asking.",
  ]);
});

test("Chinese words for keeping what is there are rules: 保留, 先留, 沿用", () => {
  judged(true, [
    "后端那边旧的 reCAPTCHA 校验先留一个版本，老版本 App 还在用。",
    "输出格式沿用 ops 那边约定的：时间 级别 模块 消息。",
    "旧的导出接口保留到下个版本。",
  ]);
});

test("only the first prompt names the task: a later prompt's sentence keeps its opening clause with its rule", () => {
  const later = "用 Element Plus 自带的 el-table-v2，别再装别的虚拟列表库。";
  expect(promptRules(["日志查看页太卡了，给表格做虚拟滚动。", later], [])).toEqual([later]);
  expect(promptRules([later], [])).toEqual(["别再装别的虚拟列表库。"]);
});

test("carrying on with a thing named in a few words names no task of its own; a new request after it does", () => {
  for (const p of ["continue with the import", "Let's get back to the migration.", "接着做导出那块", "继续"])
    expect([p, isContinuation(p)]).toEqual([p, true]);
  for (const p of [
    "continue with the import, but merge duplicate emails",
    "continue with the refactor of the billing module so invoices round correctly",
    "Add CSV import for contacts",
  ])
    expect([p, isContinuation(p)]).toEqual([p, false]);
});

test("a prompt of words that name no work carries on the task before it, in the user's own words; one naming a thing does not", () => {
  for (const p of [
    "hey, back on this. where were we?",
    "morning! picking this back up, what\u2019s left?",
    "where did we leave off?",
    "继续昨天那个",
    "我们上次做到哪了？",
    "昨天弄到哪了？接着来",
  ])
    expect([p, namesNoTask(p)]).toEqual([p, true]);
  for (const p of [
    "where were we with the invoice export?",
    "what does this do?",
    "继续修那个登录的 bug",
    "上次的导出做到哪了？",
    "…",
  ])
    expect([p, namesNoTask(p)]).toEqual([p, false]);
});

test("a request's 'without …' limit is a rule of its own; the request stays the task", () => {
  const prompt =
    "The login page flashes unstyled content on first load. Fix it without adding a CSS-in-JS library.";
  expect(promptRules([prompt], [])).toEqual(["Without adding a CSS-in-JS library."]);
  expect(taskOf(prompt)).toBe("The login page flashes unstyled content on first load. Fix it");
  // Not a request: a fact told with "without" stays as it is.
  expect(promptRules(["It worked without adding anything."], [])).toEqual([]);
});

test("a correction and what to do instead, the second pointing back at the first, are one rule", () => {
  const said = ["No wait, don't skip duplicates silently.", "Merge them into the existing contact."];
  expect(promptRules(["continue with the import", said.join(" ")], [])).toEqual([said.join(" ")]);
  // A new request that does not point back is no part of the rule.
  expect(promptRules(["Don't touch the Dockerfile. Add a CI cache step."], [])).toEqual([
    "Don't touch the Dockerfile.",
  ]);
});

test("a session whose prompts name no task says so; one no prompt reached says that; neither is taken for a goal later", () => {
  const context = { sessionId: "s1", newest: null, full: null, root: null, reason: "stop", toolCalls: 1 };
  const greeted = autoSnapshotInput({ ...emptyFacts(), first_prompt: "hi", prompts: ["hi"] }, context);
  expect(greeted.goal).toBe(UNNAMED_GOAL);
  expect(greeted.goal).not.toContain("reached");
  const silent = autoSnapshotInput(emptyFacts(), context);
  expect(silent.goal).toBe(UNKNOWN_GOAL);
  // A snapshot holding either is no goal to carry on: the next session's named task wins.
  for (const goal of [UNNAMED_GOAL, UNKNOWN_GOAL]) {
    const newest = { goal, topic: "unknown_goal", status: "in_progress" } as unknown as SnapshotRecord;
    const next = autoSnapshotInput(
      {
        ...emptyFacts(),
        first_prompt: "Add a health check endpoint",
        prompts: ["Add a health check endpoint"],
      },
      { ...context, newest },
    );
    expect(next.goal).toBe("Add a health check endpoint");
  }
});

test("a requirement said with 'need to', or with 要 after the thing it binds, is a rule; said of the speaker or inside a word it is not", () => {
  judged(true, [
    "Existing clients send ?page=N, and those requests need to keep working for now.",
    "数据卷里的数据要保住，我本地有很多测试数据。",
    "筛选条件要同步到 URL 的 query 里。",
  ]);
  judged(false, [
    "I need to leave early today.",
    "我下午三点要开会。",
    "要是还失败就把日志发我。",
    "这个很重要。",
  ]);
});

test("a preference told as a comparison is a rule: 'rather than', an order closed by what it is not; a fact told so is not", () => {
  judged(true, [
    "Fix the code rather than disabling linters.",
    "Fall back to en-GB when the locale is invalid, not en-US.",
  ]);
  judged(false, [
    "It's a bug in the parser, not the lexer.",
    "The timeout is on the client side, not the server.",
  ]);
});

test("a limit said with 'under', a value set, a means chosen in Chinese are rules; inside a request they are the task's", () => {
  judged(true, ["Thumbnails under 50 KB each.", "备份任务的超时设成 2 小时。", "查重用 Redis 的 SETNX。"]);
  judged(false, [
    "Reduce the build time to under 5 minutes.",
    "帮我用 Go 写个脚本。",
    "把登录改成用 JWT。",
    "把超时改成 30 秒。",
    "我们用 MySQL 8。",
    "现在线上是用 configmap 挂的配置。",
  ]);
});

test("to keep doing something and to leave a thing where it is are rules; leaving a new thing is not", () => {
  judged(true, [
    "keep reading the old names as a fallback for one release",
    "Then leave that field in the mobile config response, hardcoded to true.",
  ]);
  judged(false, ["Leave a comment on the PR when you're done."]);
});

test("in a prompt that adds to the task, what a rule asks instead and its short reason, after a full stop, are part of it", () => {
  const remedy =
    "The bucket must not be public in any way. Add a public access block with all four settings true.";
  expect(promptRules(["Add a bucket for the backups.", remedy], [])).toEqual([remedy]);
  const reason = "Then leave that field in the config response. Old app versions read it.";
  expect(promptRules(["Remove the checkout flag.", reason], [])).toEqual([reason]);
  // In the prompt that names the task, a request after a rule is the task.
  expect(promptRules(["The bucket must not be public. Add a public access block."], [])).toEqual([
    "The bucket must not be public.",
  ]);
});

test("a few words that ask for no work carry on the newest task when the session goes first to that task's files; to another file, or a request, they do not", () => {
  const newest = {
    goal: "Send a weekly email digest of unread notifications",
    topic: "email_digest",
    status: "in_progress",
    next_action: "Render the digest template",
    active_files: [{ path: "src/digest/query.ts" }],
    created_at: "2026-11-29T08:00:00.000Z",
  } as unknown as SnapshotRecord;
  const context = { sessionId: "s2", newest, full: null, root: null, reason: "stop", toolCalls: 1 };
  const session = (prompt: string, file: string) =>
    autoSnapshotInput(
      {
        ...emptyFacts(),
        started_at: "2026-11-30T09:00:00.000Z",
        first_prompt: prompt,
        prompts: [prompt],
        tool_uses: [
          { id: "t1", name: "Read", input: { file_path: file }, timestamp: "2026-11-30T09:00:09.000Z" },
        ],
      },
      { ...context },
    ).goal;
  expect(session("k lets continue", "/home/dev/notify/src/digest/query.ts")).toBe(newest.goal);
  expect(session("picking up yesterday's thing", "/home/dev/notify/src/digest/query.ts")).toBe(newest.goal);
  expect(session("k lets continue", "/home/dev/notify/src/billing/invoice.ts")).not.toBe(newest.goal);
  expect(session("k lets continue", "/home/dev/notify/lib/src/digest/query.ts.orig")).not.toBe(newest.goal);
  expect(session("fix the flaky digest test", "/home/dev/notify/src/digest/query.ts")).toBe(
    "fix the flaky digest test",
  );
});

test("a request that names no object, or asks for the change after the problem, takes its work from the problem; a deadline by the clock is no rule", () => {
  // "fix pls" names nothing: the problem before it is the task.
  const pdf = "invoice pdfs render the customer name as boxes when its not latin. fix pls";
  expect(taskOf(pdf)).toBe("invoice pdfs render the customer name as boxes when its not latin. Fix pls");
  // The change asked for after the problem is the task's, not a rule, though it holds 只能 / only.
  const coupons = "优惠券现在能叠加用，有人叠了三张0元下单了。改成每单只能用一张券。";
  expect(taskOf(coupons)).toBe(coupons);
  expect(promptRules([coupons], [])).toEqual([]);
  const checkout = "Checkout takes any number of coupons. Make it accept only one per order.";
  expect(taskOf(checkout)).toBe(checkout.replace(/\.$/, ""));
  expect(promptRules([checkout], [])).toEqual([]);
  // With a request of its own, a sentence holding a rule word stays a rule.
  expect(promptRules(["优惠券能叠加。帮我看看下单流程。改成每单只能用一张券。"], [])).toEqual([
    "改成每单只能用一张券。",
  ]);
  judged(false, ["今晚十点前要发版。", "周五下午之前必须提测。"]);
});

test("a restriction told by its form is a rule: 只有…才, a preference against a thing, a scope with 只, a means after a comma; a remark taken back, 别扭, a scope inside a request are not", () => {
  judged(true, [
    "只有会员券才能和满减一起用，其他券都不行。",
    "I'd prefer we not pull in lodash just for this.",
    "I'd rather we didn't send it to users who unsubscribed from marketing.",
    "数据库里还是存 UTC，只改展示层。",
    "压缩放到前端做，用 canvas 转成 webp。",
  ]);
  judged(false, [
    "I'd rather it crash at startup than quietly accept the wrong key.",
    "对了下周一开始夏令时……哦不对中国没有夏令时，忽略。",
    "Oh and don't bother with the staging config, never mind.",
    "报表导出的时间全是 UTC，运营看着别扭。",
    "把图片上传改成直传 OSS，服务器只负责签名。",
    "我只改了一行。",
  ]);
});

test("in a later prompt a correction is kept whole: a refusal with its reason and what is fine instead, a prohibition with its exception or its remedy, a case with what alone it allows", () => {
  const later = (prompt: string) => promptRules(["Shrink the API image", prompt], []);
  expect(later("not alpine. we hit musl DNS weirdness with it last year. debian slim is fine")).toEqual([
    "not alpine. we hit musl DNS weirdness with it last year. debian slim is fine",
  ]);
  // A refusal the user goes on to question is not one rule with what follows.
  expect(later("not alpine. why is the image so big anyway?")).toEqual(["not alpine."]);
  // "Not X" as a remark, or in the prompt that names the task, refuses nothing the agent did.
  expect(later("Not urgent. Whenever you get to it.")).toEqual([]);
  expect(promptRules(["Fix the login redirect. Not alpine."], [])).toEqual([]);
  expect(later("4xx 的不要重试，那是对方配置错了。只有 5xx 和超时才重试。")).toEqual([
    "4xx 的不要重试，那是对方配置错了。只有 5xx 和超时才重试。",
  ]);
  expect(
    later("why did you add retries? No retries in the test, that hides the bug. fix the race instead"),
  ).toEqual(["No retries in the test, that hides the bug. fix the race instead"]);
  expect(later("and a declined charge is final. only timeouts and 5xx get another try")).toEqual([
    "and a declined charge is final. only timeouts and 5xx get another try",
  ]);
  // In the prompt that names the task, a rule is not joined to the problem before it.
  expect(promptRules(["The job dies on timeouts. Only retry on 5xx."], [])).toEqual(["Only retry on 5xx."]);
});

test("a later prompt that questions what the agent did and then refuses it states a rule, whatever its words; a question alone, or one answered without refusing, does not", () => {
  const later = (prompt: string) => promptRules(["给用户列表加导出 CSV 的按钮", prompt], []);
  expect(later("为什么装了 papaparse？拼个 CSV 不需要库，自己写就行，记得处理逗号和引号。")).toEqual([
    "拼个 CSV 不需要库，自己写就行，记得处理逗号和引号。",
  ]);
  expect(
    later("why did you add retries? No retries in the test, that hides the bug. fix the race instead"),
  ).toEqual(["No retries in the test, that hides the bug. fix the race instead"]);
  expect(later("为什么装了 papaparse？")).toEqual([]);
  expect(later("why did you add retries? I saw it in the diff.")).toEqual([]);
});
