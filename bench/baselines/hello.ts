// The runtime floor: a compiled Bun hello world (`bun build --compile`). Every figure of the
// benchmark is also given as a ratio to this program's CPU time.
console.log("hello");
