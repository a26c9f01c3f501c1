package dev.taskgov.watcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Navigation and edits of a generic resource's JSON maps. */
final class JobMaps {
    private JobMaps() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        return o instanceof List<?> l ? (List<Object>) l : List.of();
    }

    /** The map at {@code key}, created (mutable) when missing. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> child(Map<String, Object> parent, String key) {
        Object o = parent.get(key);
        if (o instanceof Map<?, ?> m) return (Map<String, Object>) m;
        Map<String, Object> created = new LinkedHashMap<>();
        parent.put(key, created);
        return created;
    }

    /** The list at {@code key}, created (mutable) when missing. */
    @SuppressWarnings("unchecked")
    static List<Object> childList(Map<String, Object> parent, String key) {
        Object o = parent.get(key);
        if (o instanceof List<?> l) return (List<Object>) l;
        List<Object> created = new ArrayList<>();
        parent.put(key, created);
        return created;
    }

    static Object at(Map<String, Object> root, List<String> path) {
        Object o = root;
        for (String p : path) {
            o = map(o).get(p);
            if (o == null) return null;
        }
        return o;
    }

    static void put(Map<String, Object> root, List<String> path, Object value) {
        Map<String, Object> m = root;
        for (int i = 0; i < path.size() - 1; i++) m = child(m, path.get(i));
        m.put(path.get(path.size() - 1), value);
    }
}
