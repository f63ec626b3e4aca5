"""Which methods of a user's class a library calls by name.

The program model runs a method of a project class where code of the program names it
(``model.sample(...)``, ``self.sample``), and, without a name, where a library may call
it: a class built on a library class a framework drives (Lightning's hooks, Keras's
``call``, a gym ``Env``'s ``step``) may have any of its methods called. Two bases are
closed: ``object`` (nothing calls a plain class's methods but its users) and
``torch.nn.Module``, whose own code calls only the methods it defines (``forward``
through ``__call__``, ``train`` from ``eval``, ``_apply`` from ``to``...): an override of
one of them may run unnamed, any other method runs only where code names it.
``tests/libraries`` checks the list against the real ``torch.nn.Module``.
"""

from __future__ import annotations

from typing import Final

__all__ = ["CLOSED_BASES", "TORCH_MODULE_METHODS"]

# The non-special attributes `torch.nn.Module` defines (torch 2.13), and those of older
# releases a subclass may still override (`_named_members`, `share_memory`...).
TORCH_MODULE_METHODS: Final = frozenset({
    "T_destination", "_apply", "_call_impl", "_compiled_call_impl", "_get_backward_hooks",
    "_get_backward_pre_hooks", "_get_name", "_load_from_state_dict", "_maybe_warn_non_full_backward_hook",
    "_named_members", "_register_load_state_dict_pre_hook", "_register_state_dict_hook",
    "_replicate_for_data_parallel", "_save_to_state_dict", "_slow_forward", "_version", "_wrapped_call_impl",
    "add_module", "apply", "bfloat16", "buffers", "call_super_init", "children", "compile", "cpu", "cuda",
    "double", "dump_patches", "eval", "extra_repr", "float", "forward", "get_buffer", "get_extra_state",
    "get_parameter", "get_submodule", "half", "ipu", "load_state_dict", "modules", "mtia", "named_buffers",
    "named_children", "named_modules", "named_parameters", "parameters", "register_backward_hook",
    "register_buffer", "register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
    "register_full_backward_pre_hook", "register_load_state_dict_post_hook", "register_load_state_dict_pre_hook",
    "register_module", "register_parameter", "register_state_dict_post_hook", "register_state_dict_pre_hook",
    "requires_grad_", "set_extra_state", "set_submodule", "share_memory", "state_dict", "to", "to_empty",
    "train", "type", "xpu", "zero_grad",
})

# qualified base -> the method names its library code may call on a subclass
CLOSED_BASES: Final = {
    "torch.nn.Module": TORCH_MODULE_METHODS,
    "torch.nn.modules.module.Module": TORCH_MODULE_METHODS,
}
