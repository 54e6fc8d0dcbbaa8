//! `?lesson=subgroups` in the built site: this page alone, so its reader downloads nothing else.
syncscope::page_main!("subgroups", subgroups);
