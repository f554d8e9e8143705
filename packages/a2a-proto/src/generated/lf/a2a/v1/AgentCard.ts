// Original file: proto/lf/a2a/v1/a2a.proto

import type { AgentInterface as _lf_a2a_v1_AgentInterface, AgentInterface__Output as _lf_a2a_v1_AgentInterface__Output } from '../../../lf/a2a/v1/AgentInterface';
import type { AgentProvider as _lf_a2a_v1_AgentProvider, AgentProvider__Output as _lf_a2a_v1_AgentProvider__Output } from '../../../lf/a2a/v1/AgentProvider';
import type { AgentCapabilities as _lf_a2a_v1_AgentCapabilities, AgentCapabilities__Output as _lf_a2a_v1_AgentCapabilities__Output } from '../../../lf/a2a/v1/AgentCapabilities';
import type { SecurityScheme as _lf_a2a_v1_SecurityScheme, SecurityScheme__Output as _lf_a2a_v1_SecurityScheme__Output } from '../../../lf/a2a/v1/SecurityScheme';
import type { SecurityRequirement as _lf_a2a_v1_SecurityRequirement, SecurityRequirement__Output as _lf_a2a_v1_SecurityRequirement__Output } from '../../../lf/a2a/v1/SecurityRequirement';
import type { AgentSkill as _lf_a2a_v1_AgentSkill, AgentSkill__Output as _lf_a2a_v1_AgentSkill__Output } from '../../../lf/a2a/v1/AgentSkill';
import type { AgentCardSignature as _lf_a2a_v1_AgentCardSignature, AgentCardSignature__Output as _lf_a2a_v1_AgentCardSignature__Output } from '../../../lf/a2a/v1/AgentCardSignature';

/**
 * A self-describing manifest for an agent. It provides essential
 * metadata including the agent's identity, capabilities, skills, supported
 * communication methods, and security requirements.
 * Next ID: 20
 */
export interface AgentCard {
  /**
   * A human readable name for the agent.
   * Example: "Recipe Agent"
   */
  'name'?: (string);
  /**
   * A human-readable description of the agent, assisting users and other agents
   * in understanding its purpose.
   * Example: "Agent that helps users with recipes and cooking."
   */
  'description'?: (string);
  /**
   * Ordered list of supported interfaces. The first entry is preferred.
   */
  'supported_interfaces'?: (_lf_a2a_v1_AgentInterface)[];
  /**
   * The service provider of the agent.
   */
  'provider'?: (_lf_a2a_v1_AgentProvider | null);
  /**
   * The version of the agent.
   * Example: "1.0.0"
   */
  'version'?: (string);
  /**
   * A URL providing additional documentation about the agent.
   */
  'documentation_url'?: (string);
  /**
   * A2A Capability set supported by the agent.
   */
  'capabilities'?: (_lf_a2a_v1_AgentCapabilities | null);
  /**
   * The security scheme details used for authenticating with this agent.
   */
  'security_schemes'?: ({[key: string]: _lf_a2a_v1_SecurityScheme});
  /**
   * Security requirements for contacting the agent.
   */
  'security_requirements'?: (_lf_a2a_v1_SecurityRequirement)[];
  /**
   * protolint:enable REPEATED_FIELD_NAMES_PLURALIZED
   * The set of interaction modes that the agent supports across all skills.
   * This can be overridden per skill. Defined as media types.
   */
  'default_input_modes'?: (string)[];
  /**
   * The media types supported as outputs from this agent.
   */
  'default_output_modes'?: (string)[];
  /**
   * Skills represent the abilities of an agent.
   * It is largely a descriptive concept but represents a more focused set of behaviors that the
   * agent is likely to succeed at.
   */
  'skills'?: (_lf_a2a_v1_AgentSkill)[];
  /**
   * JSON Web Signatures computed for this `AgentCard`.
   */
  'signatures'?: (_lf_a2a_v1_AgentCardSignature)[];
  /**
   * Optional. A URL to an icon for the agent.
   */
  'icon_url'?: (string);
  '_documentation_url'?: "documentation_url";
  '_icon_url'?: "icon_url";
}

/**
 * A self-describing manifest for an agent. It provides essential
 * metadata including the agent's identity, capabilities, skills, supported
 * communication methods, and security requirements.
 * Next ID: 20
 */
export interface AgentCard__Output {
  /**
   * A human readable name for the agent.
   * Example: "Recipe Agent"
   */
  'name'?: (string);
  /**
   * A human-readable description of the agent, assisting users and other agents
   * in understanding its purpose.
   * Example: "Agent that helps users with recipes and cooking."
   */
  'description'?: (string);
  /**
   * Ordered list of supported interfaces. The first entry is preferred.
   */
  'supported_interfaces'?: (_lf_a2a_v1_AgentInterface__Output)[];
  /**
   * The service provider of the agent.
   */
  'provider'?: (_lf_a2a_v1_AgentProvider__Output);
  /**
   * The version of the agent.
   * Example: "1.0.0"
   */
  'version'?: (string);
  /**
   * A URL providing additional documentation about the agent.
   */
  'documentation_url'?: (string);
  /**
   * A2A Capability set supported by the agent.
   */
  'capabilities'?: (_lf_a2a_v1_AgentCapabilities__Output);
  /**
   * The security scheme details used for authenticating with this agent.
   */
  'security_schemes'?: ({[key: string]: _lf_a2a_v1_SecurityScheme__Output});
  /**
   * Security requirements for contacting the agent.
   */
  'security_requirements'?: (_lf_a2a_v1_SecurityRequirement__Output)[];
  /**
   * protolint:enable REPEATED_FIELD_NAMES_PLURALIZED
   * The set of interaction modes that the agent supports across all skills.
   * This can be overridden per skill. Defined as media types.
   */
  'default_input_modes'?: (string)[];
  /**
   * The media types supported as outputs from this agent.
   */
  'default_output_modes'?: (string)[];
  /**
   * Skills represent the abilities of an agent.
   * It is largely a descriptive concept but represents a more focused set of behaviors that the
   * agent is likely to succeed at.
   */
  'skills'?: (_lf_a2a_v1_AgentSkill__Output)[];
  /**
   * JSON Web Signatures computed for this `AgentCard`.
   */
  'signatures'?: (_lf_a2a_v1_AgentCardSignature__Output)[];
  /**
   * Optional. A URL to an icon for the agent.
   */
  'icon_url'?: (string);
  '_documentation_url'?: "documentation_url";
  '_icon_url'?: "icon_url";
}
