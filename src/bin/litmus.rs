//! `?lesson=litmus` in the built site: the litmus lab alone, so its reader downloads nothing else.
syncscope::page_main!("litmus", litmus);
