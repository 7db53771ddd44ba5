// Activation chains (seed 000 "Circular Skill Dependencies"): a skill activated while another is on top of the
// stack continues that skill's chain, across fork sub-agents too. Activating a skill already on the chain is a
// cycle and is refused with the chain shown (`a -> b -> a`); a chain longer than the depth limit is refused too.
// Re-activating the top skill itself adds no link (it only refreshes it), unless it runs as a fork.
// A chain holds only skills still active: a skill that was unloaded or replaced left it, so switching back to an
// earlier skill (spec 004 "Skill Switching": load a, replace with b, replace with a) is no cycle.
export class ActivationChainError extends Error {
  constructor(
    message: string,
    readonly code: "activation_cycle" | "activation_depth",
    readonly chain: string[],
  ) {
    super(message);
    this.name = "ActivationChainError";
  }
}

export class ActivationChains {
  private readonly chains = new Map<string, string[]>();

  /**
   * @param base the chain this run continues: [] for a top-level run, the parent's chain up to and including
   *   the fork skill for a sub-agent.
   */
  constructor(
    readonly base: string[],
    readonly maxDepth: number,
  ) {
    const own = base.at(-1);
    if (own) this.chains.set(own, base);
  }

  /** The chain that led to `name`, without the skills no longer active (the base, a fork's parents, always is). */
  private chainOf(name: string, active: ReadonlySet<string>): string[] {
    const chain = this.chains.get(name) ?? [...this.base, name];
    return chain.filter((n, i) => i < this.base.length || n === name || active.has(n));
  }

  /**
   * The chain activating `name` now would give (with `top` the most recent active skill before the call), or an
   * ActivationChainError. `active` names the skills active now. Nothing is recorded: call `record` once the
   * activation happened.
   */
  check(name: string, top: string | undefined, active: ReadonlySet<string>, opts: { fork?: boolean } = {}): string[] {
    const parent = top ? this.chainOf(top, active) : this.base;
    if (top === name && !opts.fork) return parent;
    const chain = [...parent, name];
    if (parent.includes(name)) {
      throw new ActivationChainError(
        `Activation cycle: ${chain.join(" -> ")}. Skill '${name}' is already on this chain of activations, so it was not activated again; ` +
          `continue with the instructions you already have.`,
        "activation_cycle",
        chain,
      );
    }
    if (chain.length > this.maxDepth) {
      throw new ActivationChainError(
        `Activation depth limit: ${chain.join(" -> ")} would be ${chain.length} skills deep, the limit is ${this.maxDepth}. ` +
          `Skill '${name}' was not activated; finish with the skills already active.`,
        "activation_depth",
        chain,
      );
    }
    return chain;
  }

  record(name: string, chain: string[]): void {
    this.chains.set(name, chain);
  }
}
