// Original file: proto/lf/a2a/v1/a2a.proto

import type { SecurityRequirement as _lf_a2a_v1_SecurityRequirement, SecurityRequirement__Output as _lf_a2a_v1_SecurityRequirement__Output } from '../../../lf/a2a/v1/SecurityRequirement';

/**
 * Represents a distinct capability or function that an agent can perform.
 */
export interface AgentSkill {
  /**
   * A unique identifier for the agent's skill.
   */
  'id'?: (string);
  /**
   * A human-readable name for the skill.
   */
  'name'?: (string);
  /**
   * A detailed description of the skill.
   */
  'description'?: (string);
  /**
   * A set of keywords describing the skill's capabilities.
   */
  'tags'?: (string)[];
  /**
   * Example prompts or scenarios that this skill can handle.
   */
  'examples'?: (string)[];
  /**
   * The set of supported input media types for this skill, overriding the agent's defaults.
   */
  'input_modes'?: (string)[];
  /**
   * The set of supported output media types for this skill, overriding the agent's defaults.
   */
  'output_modes'?: (string)[];
  /**
   * Security schemes necessary for this skill.
   */
  'security_requirements'?: (_lf_a2a_v1_SecurityRequirement)[];
}

/**
 * Represents a distinct capability or function that an agent can perform.
 */
export interface AgentSkill__Output {
  /**
   * A unique identifier for the agent's skill.
   */
  'id'?: (string);
  /**
   * A human-readable name for the skill.
   */
  'name'?: (string);
  /**
   * A detailed description of the skill.
   */
  'description'?: (string);
  /**
   * A set of keywords describing the skill's capabilities.
   */
  'tags'?: (string)[];
  /**
   * Example prompts or scenarios that this skill can handle.
   */
  'examples'?: (string)[];
  /**
   * The set of supported input media types for this skill, overriding the agent's defaults.
   */
  'input_modes'?: (string)[];
  /**
   * The set of supported output media types for this skill, overriding the agent's defaults.
   */
  'output_modes'?: (string)[];
  /**
   * Security schemes necessary for this skill.
   */
  'security_requirements'?: (_lf_a2a_v1_SecurityRequirement__Output)[];
}
