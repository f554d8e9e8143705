// Original file: proto/lf/a2a/v1/a2a.proto

import type { AgentExtension as _lf_a2a_v1_AgentExtension, AgentExtension__Output as _lf_a2a_v1_AgentExtension__Output } from '../../../lf/a2a/v1/AgentExtension';

/**
 * Defines optional capabilities supported by an agent.
 */
export interface AgentCapabilities {
  /**
   * Indicates if the agent supports streaming responses.
   */
  'streaming'?: (boolean);
  /**
   * Indicates if the agent supports sending push notifications for asynchronous task updates.
   */
  'push_notifications'?: (boolean);
  /**
   * A list of protocol extensions supported by the agent.
   */
  'extensions'?: (_lf_a2a_v1_AgentExtension)[];
  /**
   * Indicates if the agent supports providing an extended agent card when authenticated.
   */
  'extended_agent_card'?: (boolean);
  '_streaming'?: "streaming";
  '_push_notifications'?: "push_notifications";
  '_extended_agent_card'?: "extended_agent_card";
}

/**
 * Defines optional capabilities supported by an agent.
 */
export interface AgentCapabilities__Output {
  /**
   * Indicates if the agent supports streaming responses.
   */
  'streaming'?: (boolean);
  /**
   * Indicates if the agent supports sending push notifications for asynchronous task updates.
   */
  'push_notifications'?: (boolean);
  /**
   * A list of protocol extensions supported by the agent.
   */
  'extensions'?: (_lf_a2a_v1_AgentExtension__Output)[];
  /**
   * Indicates if the agent supports providing an extended agent card when authenticated.
   */
  'extended_agent_card'?: (boolean);
  '_streaming'?: "streaming";
  '_push_notifications'?: "push_notifications";
  '_extended_agent_card'?: "extended_agent_card";
}
